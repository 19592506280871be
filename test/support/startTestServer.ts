// Test-only: a real HTTP server on 127.0.0.1 (port 0) whose replies a test scripts step by step.
import {createServer, type IncomingMessage, type ServerResponse} from "node:http";
import type {AddressInfo} from "node:net";

export type RecordedRequest = {
    method: string,
    url: string,
    headers: IncomingMessage["headers"],
    body: string,
    /** Resolves when the client closed or finished the connection for this request. */
    closed: Promise<void>
};

export type Reply = (res: ServerResponse, req: RecordedRequest) => void | Promise<void>;

export type TestServer = {
    url: string,
    requests: RecordedRequest[],
    close: () => Promise<void>
};

/** Serves `replies` in order, one per request; the last one repeats when requests outnumber them. */
export async function startTestServer(replies: Reply[]): Promise<TestServer> {
    const requests: RecordedRequest[] = [];
    const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        const closed = new Promise<void>((resolve) => res.on("close", () => resolve()));
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", () => {
            const recorded: RecordedRequest = {method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), closed};
            requests.push(recorded);
            const reply = replies[Math.min(requests.length, replies.length) - 1];
            Promise.resolve(reply(res, recorded)).catch((error: unknown) => {
                res.destroy(error instanceof Error ? error : new Error(String(error)));
            });
        });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const {port} = server.address() as AddressInfo;
    return {
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
        })
    };
}

/** A JSON reply with the given status and extra headers. */
/** Runs `run` against a fresh test server answering `replies` in order, and always closes it. */
export async function withTestServer(replies: Reply[], run: (url: string, requests: TestServer["requests"]) => Promise<void>) {
    const server = await startTestServer(replies);
    try {
        await run(server.url, server.requests);
    } finally {
        await server.close();
    }
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
    return (res) => {
        res.writeHead(status, {"content-type": "application/json", ...headers});
        res.end(JSON.stringify(body));
    };
}

/** A reply with no body at all, as some 5xx are (spec §7). */
export function empty(status: number, headers: Record<string, string> = {}): Reply {
    return (res) => {
        res.writeHead(status, headers);
        res.end();
    };
}

/** Writes `pieces` of an event stream one by one, each flushed separately after a short pause. */
export function sse(pieces: Array<string | Uint8Array>, options: {headers?: Record<string, string>, end?: "close" | "destroy" | "hang", pauseMs?: number} = {}): Reply {
    return async (res) => {
        res.writeHead(200, {"content-type": "text/event-stream", "cache-control": "no-cache", ...options.headers});
        res.flushHeaders();
        for (const piece of pieces) {
            if (res.destroyed) return;
            res.write(piece);
            await pause(options.pauseMs ?? 2);
        }
        if (options.end === "destroy") res.destroy();
        else if (options.end !== "hang") res.end();
    };
}

export function pause(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
