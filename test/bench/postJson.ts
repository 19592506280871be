import http from "node:http";

/**
 * A keep-alive `node:http` POST (or GET) returning the parsed JSON answer. The benchmark's clients share the machine's two
 * cores with the server, so a client's own CPU is timed as server overhead: undici's `fetch` spends ~3x the CPU of
 * `node:http` per request here (measured 1.5-2 ms vs 0.5 ms), which is why both are reported.
 */
export function createJsonPoster(url: string, {headers = {}, method = "POST"}: {headers?: Record<string, string>, method?: "GET" | "POST"} = {}): (body: string) => Promise<unknown> {
    const agent = new http.Agent({keepAlive: true});
    const target = new URL(url);
    return (body) => new Promise((resolve, reject) => {
        const request = http.request({
            host: target.hostname, port: target.port, path: target.pathname, method, agent,
            headers: method === "GET" ? headers : {...headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body)}
        }, (response) => {
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => text += chunk);
            response.on("end", () => {
                try {
                    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${text}`);
                    resolve(JSON.parse(text));
                } catch (error) {
                    reject(error);
                }
            });
        });
        request.on("error", reject);
        request.end(method === "GET" ? undefined : body);
    });
}
