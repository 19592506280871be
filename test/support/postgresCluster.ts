import {execFile} from "node:child_process";
import {existsSync, readdirSync} from "node:fs";
import {chmod, chown, mkdtemp, rm} from "node:fs/promises";
import {tmpdir, userInfo} from "node:os";
import path from "node:path";
import {promisify} from "node:util";
import {freePort} from "./startLlamaServer.ts";

const run = promisify(execFile);

/**
 * A throwaway PostgreSQL cluster for tests: `initdb` and `pg_ctl` (Debian's `postgresql` package, which `.ci/run`
 * installs) in a temporary folder, listening on a free loopback port with trust authentication, removed by
 * `remove`. PostgreSQL refuses to run as root, so under root the cluster belongs to the `postgres` user (or
 * `nobody`) and its tools run through `runuser`.
 */
export type PostgresCluster = {
    /** `postgres://postgres@127.0.0.1:<port>/postgres` */
    url: string,
    /** Stops the server (`fast`: sessions are ended, as a restart or failover does) and starts it again. */
    stop(mode?: "fast" | "immediate"): Promise<void>,
    start(): Promise<void>,
    /** Runs SQL as the superuser (psql), for a test's own checks. */
    psql(sql: string): Promise<string>,
    remove(): Promise<void>
};

/** The folder of `initdb` and `pg_ctl`: the newest of /usr/lib/postgresql/<version>/bin, else undefined. */
export function postgresBinaries(): string | undefined {
    const root = "/usr/lib/postgresql";
    const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
    return versions.map((version) => path.join(root, version, "bin")).find((bin) => existsSync(path.join(bin, "initdb")) && existsSync(path.join(bin, "pg_ctl")));
}

/** Why PostgreSQL tests skip on this machine (no binaries), or undefined when they can run. */
export const postgresMissing = postgresBinaries() == null
    ? "PostgreSQL is not installed (Debian: apt-get install postgresql; .ci/run installs it)" : undefined;

export async function startPostgresCluster(): Promise<PostgresCluster> {
    const bin = postgresBinaries();
    if (bin == null) throw new Error(postgresMissing);
    const dir = await mkdtemp(path.join(tmpdir(), "svc-pg-"));
    const data = path.join(dir, "data");
    const port = await freePort();
    const root = userInfo().uid === 0;
    const owner = root ? await runAsUser() : undefined;
    if (owner != null) {
        await chown(dir, owner.uid, owner.gid);
        await chmod(dir, 0o700);
    }
    const tool = (name: string, args: string[]) => owner != null
        ? run("runuser", ["-u", owner.name, "--", path.join(bin, name), ...args], {cwd: dir})
        : run(path.join(bin, name), args, {cwd: dir});
    await tool("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
    // Durability is not under test here (fsync off keeps the suite quick); connections enough for three fronts' pools.
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
    const start = async () => void await tool("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-o", options, "-w", "-t", "30", "start"]);
    const stop = async (mode: "fast" | "immediate" = "fast") => void await tool("pg_ctl", ["-D", data, "-m", mode, "-w", "-t", "30", "stop"]);
    await start();
    return {
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        stop,
        start,
        psql: async (sql) => (await tool("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql])).stdout.trim(),
        async remove() {
            await stop("immediate").catch(() => {});
            await rm(dir, {recursive: true, force: true});
        }
    };
}

/** The unprivileged user a root test runs PostgreSQL as: `postgres` where the package created it, else `nobody`. */
async function runAsUser(): Promise<{name: string, uid: number, gid: number}> {
    for (const name of ["postgres", "nobody"]) {
        const found = await run("id", ["-u", name]).then(async ({stdout}) => ({name, uid: Number(stdout), gid: Number((await run("id", ["-g", name])).stdout)}), () => undefined);
        if (found != null) return found;
    }
    throw new Error("PostgreSQL refuses to run as root, and neither a postgres nor a nobody user exists to run it as");
}
