// Test-only: loopback ports for tests of what listens where.
import {createServer, type Server} from "node:net";

/** A port nothing listens on now (the OS's pick, released at once). */
export async function freePort(): Promise<number> {
    const server = await holdPort(0);
    const {port} = server.address() as {port: number};
    await new Promise((resolve) => server.close(resolve));
    return port;
}

/** Another program's listener on 127.0.0.1:`port` (0: a free one); close it when done. */
export async function holdPort(port: number): Promise<Server & {port: number}> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
    return Object.assign(server, {port: (server.address() as {port: number}).port});
}
