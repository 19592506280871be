import {createServer, connect, type Server, type Socket} from "node:net";
import type {AddressInfo} from "node:net";

/**
 * A TCP proxy on loopback in front of a real server, for what the upstream tests must see on the wire: the HTTP
 * requests that crossed it (a refused request must not), a downstream that hangs up on a pending request (the
 * cancel of spec §6 rule 3 reaching the upstream), an engine that is down (`stop`: connections refused) and back
 * (`start` on the same port), and a slow one (`delayMs` holds each response's bytes that long).
 */
export type LoopbackProxy = {
    url: string,
    port: number,
    /** Request lines seen, e.g. `POST /v1/chat/completions`, in order. */
    requests: string[],
    /** Connections the client side closed while its last request had no response byte yet. */
    cancelledPending: number,
    delayMs: number,
    stop(): Promise<void>,
    start(): Promise<void>,
    close(): Promise<void>
};

export async function startLoopbackProxy(target: {host: string, port: number}): Promise<LoopbackProxy> {
    const sockets = new Set<Socket>();
    const proxy: LoopbackProxy = {
        url: "", port: 0, requests: [], cancelledPending: 0, delayMs: 0,
        stop: async () => {
            for (const socket of sockets) socket.destroy();
            await new Promise<void>((resolve) => server.close(() => resolve()));
        },
        /** Listens again on the same port; does nothing while listening. */
        start: async () => {
            if (server.listening) return;
            server = listen();
            await new Promise<void>((resolve, reject) => {
                server.once("error", reject);
                server.listen(proxy.port, "127.0.0.1", resolve);
            });
        },
        close: () => proxy.stop()
    };
    const listen = (): Server => createServer((downstream) => {
        const upstream = connect(target.port, target.host);
        sockets.add(downstream).add(upstream);
        let pending = false;
        downstream.on("data", (chunk: Buffer) => {
            for (const match of chunk.toString("latin1").matchAll(/^(GET|POST|PUT|DELETE) (\S+) HTTP\/1\.1\r$/gm)) {
                proxy.requests.push(`${match[1]} ${match[2]}`);
                pending = true;
            }
            upstream.write(chunk);
        });
        // Every byte and end from the engine waits `delayMs`, in order; an end is passed on as an end (FIN), so a
        // keep-alive client sees the engine close its connection exactly as it would without the proxy.
        const later = (action: () => void) => proxy.delayMs > 0 ? setTimeout(action, proxy.delayMs) : action();
        upstream.on("data", (chunk: Buffer) => later(() => {
            pending = false;
            if (!downstream.destroyed) downstream.write(chunk);
        }));
        upstream.on("end", () => later(() => downstream.end()));
        downstream.on("end", () => upstream.end());
        const forget = () => {
            sockets.delete(downstream);
            sockets.delete(upstream);
        };
        downstream.on("close", () => {
            if (pending) proxy.cancelledPending++;
            upstream.destroy();
            forget();
        });
        upstream.on("close", () => later(() => {
            downstream.destroy();
            forget();
        }));
        downstream.on("error", () => upstream.destroy());
        upstream.on("error", () => downstream.destroy());
    });
    let server = listen();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    proxy.port = (server.address() as AddressInfo).port;
    proxy.url = `http://127.0.0.1:${proxy.port}`;
    return proxy;
}
