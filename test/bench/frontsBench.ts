import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {type AdmissionRequest, admitInSteps} from "../../native/service/admission.ts";
import type {ServiceBackend} from "../../native/service/backend.ts";
import {PostgresBackend} from "../../native/service/postgres/PostgresBackend.ts";
import {SqliteBackend} from "../../native/service/sqliteBackend.ts";
import {builtLlamaCpp} from "../support/llamaCpp.ts";
import {postgresMissing, startPostgresCluster, type PostgresCluster} from "../support/postgresCluster.ts";
import {spawnServer} from "../support/spawnServer.ts";
import {startLlamaServer} from "../support/startLlamaServer.ts";
import {gateRunner} from "./gateTimes.ts";
import {median} from "./measure.ts";
import {createJsonPoster} from "./postJson.ts";

/**
 * Benchmark: the team server beyond one process. (1) What metering adds to a request, the gate alone in process
 * (admit, then settle: key, workspace, price and limit read, hold, rate bucket, charge): no store (open mode), SQLite,
 * and PostgreSQL on a loopback cluster. Goal: PostgreSQL adds at most 1 ms. (2) Requests/s of three
 * `serve --upstream --database` fronts against one, in front of the same llama-server: a front must not be what
 * limits, so three should not fall below one. Skipped, with the reason, without PostgreSQL or llama-server.
 */
export async function frontsBench(modelPath: string, requests = 2_000) {
    if (postgresMissing != null) return console.log(`skipped: ${postgresMissing}`);
    const cluster = await startPostgresCluster();
    const dataDir = await mkdtemp(path.join(tmpdir(), "svc-bench-fronts-"));
    try {
        console.log(`the gate alone, in process: admit + settle, ${requests} sequential requests each (after 200 warm-up); ms per request`);
        console.log(`${"store".padEnd(24)}${"median".padStart(8)}${"p99".padStart(8)}${"added".padStart(8)}`);
        const open = await gateTimes(undefined, requests);
        const sqlite = SqliteBackend.open(dataDir, {backgroundCheckpoints: true});
        const postgres = await PostgresBackend.open(cluster.url, {front: "bench"});
        // The same store admitting as it did before admission became one statement: the key read on its own, then the
        // hold. Both are timed in alternating blocks, so a busy machine weighs on both alike.
        const stepwise: ServiceBackend = Object.assign(Object.create(postgres) as PostgresBackend, {admit: (request: AdmissionRequest) => admitInSteps(postgres, request)});
        const [oneStatement, keyApart] = await alternating([postgres, stepwise], requests);
        for (const [name, times] of [["none (open mode)", open], ["SQLite", await gateTimes(sqlite, requests)], ["PostgreSQL (loopback)", oneStatement],
            ["PostgreSQL, key apart", keyApart]] as const)
            console.log(`${name.padEnd(24)}${median(times).toFixed(3).padStart(8)}${p99(times).toFixed(3).padStart(8)}${(median(times) - median(open)).toFixed(3).padStart(8)}`);
        await sqlite.close();
        const secret = await seed(postgres);
        await postgres.close();
        await frontsThroughput(cluster, modelPath, secret);
    } finally {
        await cluster.remove();
        await rm(dataDir, {recursive: true, force: true});
    }
}

/** A workspace with ample credit, a price and generous limits; its key. */
async function seed(backend: ServiceBackend): Promise<string> {
    const organizations = await backend.listOrganizations();
    const organization = organizations.find((candidate) => candidate.name === "bench") ?? await backend.createOrganization("bench");
    const workspace = await backend.createWorkspace(organization.id, `bench-${Date.now()}`);
    await backend.activateWorkspace(workspace.id);
    await backend.addCredits(workspace.id, 1_000_000_000_000);
    await backend.setPrice({model: "svc-1", inputMicrosPerMillion: 150_000, cachedInputMicrosPerMillion: 75_000, outputMicrosPerMillion: 600_000});
    await backend.setRateLimit({workspaceId: workspace.id, model: "svc-1", requestsPerMinute: 1_000_000, tokensPerMinute: 1_000_000_000});
    return (await backend.createKey({workspaceId: workspace.id})).secret;
}

/** The gate's times on each backend, `requests` each, run in alternating blocks of 250 after each one's warm-up. */
async function alternating(backends: ServiceBackend[], requests: number, block = 250): Promise<number[][]> {
    const gates: Array<{times: number[], run: (count: number) => Promise<number[]>}> = [];
    for (const backend of backends) gates.push({times: [], run: await gateRunner(backend, await seed(backend))});
    for (const gate of gates) await gate.run(200);
    for (let done = 0; done < requests; done += block)
        for (const gate of gates) gate.times.push(...await gate.run(Math.min(block, requests - done)));
    return gates.map((gate) => gate.times);
}

async function gateTimes(backend: ServiceBackend | undefined, requests: number): Promise<number[]> {
    const run = await gateRunner(backend, backend != null ? await seed(backend) : "");
    await run(200);
    return run(requests);
}

function p99(values: number[]): number {
    return [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)];
}

/** 4-token completions from 12 clients, through one front, then spread over three, on the same llama-server (4 slots). */
async function frontsThroughput(cluster: PostgresCluster, modelPath: string, secret: string, perClient = 20) {
    const tools = await builtLlamaCpp();
    if (tools == null) return console.log("skipped the fronts' requests/s: llama-server is not built yet (`npm run bench:llama-server`)");
    const llama = await startLlamaServer(modelPath, {parallel: 4, tools, args: ["-fa", "off", "--threads-http", "16"]});
    const args = ["--upstream", `${llama.url}/v1`, "--upstream-tokenizer", `${modelPath}.absent`, "--database", cluster.url];
    const fronts = await Promise.all([1, 2, 3].map((index) => spawnServer([...args, "--front-name", `bench-${index}`])));
    try {
        const body = JSON.stringify({model: "svc-1", prompt: "Once upon a time", max_tokens: 4, temperature: 0});
        const rate = async (count: number) => {
            const callers = fronts.slice(0, count).map((front) => createJsonPoster(`${front.url}/svc-1/v1/completions`, {headers: {Authorization: `Bearer ${secret}`}}));
            for (const call of callers) for (let warm = 0; warm < 5; warm++) await call(body);
            const started = performance.now();
            await Promise.all(Array.from({length: 12}, async (_, client) => {
                for (let index = 0; index < perClient; index++) await callers[client % callers.length](body);
            }));
            return 12 * perClient / ((performance.now() - started) / 1000);
        };
        const rounds: Array<[number, number]> = [];
        for (let round = 0; round < 3; round++) rounds.push([await rate(1), await rate(3)]);
        const one = median(rounds.map(([single]) => single)), three = median(rounds.map(([, spread]) => spread));
        console.log(`\nrequests/s through the fronts (12 clients, 4-token completions, llama-server with 4 slots; median of 3 rounds): ` +
            `one front ${one.toFixed(1)}, three fronts ${three.toFixed(1)} (x${(three / one).toFixed(2)})`);
    } finally {
        for (const front of fronts) await front.close();
        await llama.close();
    }
}
