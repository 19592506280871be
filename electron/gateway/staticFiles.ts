import {readFile, stat} from "node:fs/promises";
import type {ServerResponse} from "node:http";
import path from "node:path";
import {GatewayError} from "../api/answers.ts";

/**
 * The policy sent with every HTML page of the gateway (and enforced again by Electron main): scripts only from
 * the gateway origin, network only to it (the renderer reaches engines and remotes through its proxy), workers
 * from blob: for Monaco, inline styles for React and Monaco.
 */
export const contentSecurityPolicy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    // The pages that read an earlier version's storage, served for a minute on that version's port (appData/earlierOrigins.ts).
    "frame-src 'self' http://127.0.0.1:*",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'"
].join("; ");

const mimeTypes: Record<string, string> = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".map": "application/json; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".wasm": "application/wasm",
    ".csv": "text/csv; charset=utf-8",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
};

/** Shown at `/` when `renderer/dist` has not been built, so a bare checkout still explains itself. */
const placeholderHtml = `<!doctype html><html><head><title>Svc Studio</title></head><body>
<h1>Svc Studio</h1><p>The renderer is not built yet. Build it (<code>npm run build:renderer</code>) and reload this page.</p>
<p>The gateway API is up: <code>/gateway/api/state</code>, <code>/local/svc-1/v1/...</code>.</p></body></html>`;

export type StaticOptions = {
    rootDir: string,
    pathname: string,
    headOnly: boolean
};

/**
 * Serves the built renderer: `index.html` (also for extension-less paths, the single-page app's routes) with the CSP,
 * other files as they are; no page carries a credential (session.ts). Paths are confined to `rootDir`.
 */
export async function serveStatic(res: ServerResponse, {rootDir, pathname, headOnly}: StaticOptions) {
    let decoded: string;
    try {
        decoded = decodeURIComponent(pathname);
    } catch {
        throw new GatewayError(400, "invalid_request", "invalid_request_error", "the path is not valid percent-encoding");
    }
    const root = path.resolve(rootDir);
    const relative = decoded === "/" ? "index.html" : "." + decoded;
    const filePath = path.resolve(root, relative);
    if (decoded.includes("\0") || (filePath !== root && !filePath.startsWith(root + path.sep)))
        throw notFound(pathname);

    const file = await readRegularFile(filePath);
    if (file != null && path.extname(filePath) !== ".html")
        return send(res, 200, file, headersFor(filePath, decoded), headOnly);
    if (file == null && path.extname(decoded) !== "")
        throw notFound(pathname);

    // index.html, an explicit .html file, or the single-page fallback for a client-side route.
    const html = file ?? await readRegularFile(path.join(root, "index.html"));
    return send(res, 200, html ?? Buffer.from(placeholderHtml, "utf8"), htmlHeaders(), headOnly);
}

export function htmlHeaders(): Record<string, string> {
    return {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": contentSecurityPolicy,
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY"
    };
}

function headersFor(filePath: string, urlPath: string): Record<string, string> {
    return {
        "Content-Type": mimeTypes[path.extname(filePath).toLowerCase()] ?? "application/octet-stream",
        // Vite puts content-hashed files under /assets/: they never change under the same name.
        "Cache-Control": urlPath.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
        "X-Content-Type-Options": "nosniff"
    };
}

async function readRegularFile(filePath: string): Promise<Buffer | undefined> {
    const info = await stat(filePath).catch(() => undefined);
    if (info == null || !info.isFile()) return undefined;
    return readFile(filePath);
}

function send(res: ServerResponse, status: number, body: Buffer, headers: Record<string, string>, headOnly: boolean) {
    res.writeHead(status, {...headers, "Content-Length": body.length});
    res.end(headOnly ? undefined : body);
}

function notFound(pathname: string) {
    return new GatewayError(404, "not_found", "invalid_request_error", `no file ${pathname}`);
}
