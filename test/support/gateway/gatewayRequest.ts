// Test-only: raw HTTP calls to a gateway, with full control over Host and every other header (fetch forbids some).
import http from "node:http";

export type GatewayAnswer = {status: number, headers: http.IncomingHttpHeaders, body: string};

/** `path`, when given, is sent as the request target verbatim (URL parsing would turn `\` into `/`, as probes must not). */
export function gatewayRequest(url: string, options: {method?: string, headers?: Record<string, string>, body?: unknown, path?: string} = {}): Promise<GatewayAnswer> {
    const body = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    const headers: Record<string, string> = {...options.headers};
    if (body != null) {
        headers["content-type"] ??= "application/json";
        headers["content-length"] = String(Buffer.byteLength(body));
    }
    return new Promise((resolve, reject) => {
        const target = options.path != null ? {path: options.path} : {};
        const req = http.request(url, {method: options.method ?? (body != null ? "POST" : "GET"), headers, ...target}, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => resolve({status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8")}));
            res.on("error", reject);
        });
        req.on("error", reject);
        req.end(body);
    });
}
