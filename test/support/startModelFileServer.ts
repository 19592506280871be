// Test-only: a real HTTP file server on 127.0.0.1 with the faults a model download must survive.
import {createHash} from "node:crypto";
import {createServer, type IncomingMessage, type ServerResponse} from "node:http";
import type {AddressInfo} from "node:net";

export type ServedFile = {
    body: Buffer,
    /** Default `application/octet-stream`. */
    contentType?: string,
    /** Answer this status (with `body`) instead of the file. */
    status?: number,
    /** Answer 503 (Retry-After: 0) to this many requests before serving. */
    failFirst?: number,
    /** For this many served requests, close the connection after `dropAfterBytes` bytes of the body. */
    dropFirst?: number,
    dropAfterBytes?: number,
    /** Send the body in chunks of this size, `chunkDelayMs` apart (a slow line, to cancel mid-way). */
    chunkBytes?: number,
    chunkDelayMs?: number,
    /** Honour `Range` (default true); false answers 200 with the whole file every time. */
    ranges?: boolean
};

export type LoggedRequest = {path: string, range?: string, ifRange?: string, status?: number};

export type ModelFileServer = {
    url: string,
    requests: LoggedRequest[],
    close(): Promise<void>
};

export async function startModelFileServer(files: Record<string, ServedFile>): Promise<ModelFileServer> {
    const requests: LoggedRequest[] = [];
    const served = new Map<string, number>();
    const server = createServer((req, res) => {
        const path = new URL(req.url ?? "/", "http://x").pathname;
        const logged: LoggedRequest = {path, range: req.headers.range, ifRange: req.headers["if-range"] as string | undefined};
        requests.push(logged);
        const file = files[path];
        if (file == null) return answer(res, logged, 404, "text/plain", Buffer.from("not found\n"));
        const count = served.get(path) ?? 0;
        served.set(path, count + 1);
        if (count < (file.failFirst ?? 0)) {
            res.setHeader("Retry-After", "0");
            return answer(res, logged, 503, "text/plain", Buffer.from("busy\n"));
        }
        if (file.status != null) return answer(res, logged, file.status, file.contentType ?? "text/plain", file.body);
        void serveFile(req, res, logged, file, count - (file.failFirst ?? 0) < (file.dropFirst ?? 0));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const {port} = server.address() as AddressInfo;
    return {
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => new Promise((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
        })
    };
}

function answer(res: ServerResponse, logged: LoggedRequest, status: number, contentType: string, body: Buffer) {
    logged.status = status;
    res.writeHead(status, {"Content-Type": contentType, "Content-Length": body.length});
    res.end(body);
}

async function serveFile(req: IncomingMessage, res: ServerResponse, logged: LoggedRequest, file: ServedFile, drop: boolean) {
    const etag = `"${createHash("sha256").update(file.body).digest("hex").slice(0, 16)}"`;
    const size = file.body.length;
    let start = 0;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    const ifRange = req.headers["if-range"];
    if (range != null && file.ranges !== false && (ifRange == null || ifRange === etag)) {
        start = Number(range[1]);
        if (start >= size) {
            logged.status = 416;
            res.writeHead(416, {"Content-Range": `bytes */${size}`});
            return res.end();
        }
    }
    const status = start > 0 ? 206 : 200;
    logged.status = status;
    res.writeHead(status, {
        "Content-Type": file.contentType ?? "application/octet-stream",
        "Content-Length": size - start,
        "Accept-Ranges": file.ranges === false ? "none" : "bytes",
        "ETag": etag,
        ...(status === 206 ? {"Content-Range": `bytes ${start}-${size - 1}/${size}`} : {})
    });
    const end = drop ? Math.min(size, start + (file.dropAfterBytes ?? 0)) : size;
    const chunkBytes = file.chunkBytes ?? 64 * 1024;
    for (let at = start; at < end && !res.destroyed; at += chunkBytes) {
        const slice = file.body.subarray(at, Math.min(end, at + chunkBytes));
        // Waiting for each write to flush means a dropped connection has really delivered what came before.
        await new Promise<void>((resolve) => res.write(slice, () => resolve()));
        if (file.chunkDelayMs != null) await new Promise((resolve) => setTimeout(resolve, file.chunkDelayMs));
    }
    // The dropped connection: headers promised the whole file, the socket closes part-way.
    if (drop) res.socket?.destroy();
    else res.end();
}
