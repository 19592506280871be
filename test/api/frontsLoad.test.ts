// Three `svc-studio serve --upstream --database` fronts under bursts of load in front of one real llama-server with 4
// slots and its default HTTP threads: 120 concurrent requests round-robin over the fronts, five times, with pauses
// between the bursts around llama-server's 5 s keep-alive, so the fronts' kept connections age out while idle and
// are reused just before and just after the upstream closes them. No client retries: every request must be answered
// (no 502 from a connection the upstream had closed), and the shared ledger must be exact.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {setTimeout as sleep} from "node:timers/promises";
import OpenAI from "openai";
import type {AnyUsage} from "../../protocol/usage.ts";
import {PostgresBackend} from "../../native/service/postgres/PostgresBackend.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {postgresMissing, startPostgresCluster, type PostgresCluster} from "../support/postgresCluster.ts";
import {spawnServer} from "../support/spawnServer.ts";
import {startLlamaServer, type LlamaServer} from "../support/startLlamaServer.ts";
import {testPrices} from "./utils/teamServer.ts";
import {assertPostgresLedgerExact, type ReceivedAnswer} from "./utils/postgresLedger.ts";

const burst = 120;
/** Idle time before each burst: none, then on both sides of llama-server's 5 s keep-alive (and the fronts' 2.5 s). */
const pausesMs = [0, 2_400, 4_700, 5_100, 5_600];

describe("bursts of 120 concurrent requests over three fronts on one llama-server", {skip: postgresMissing}, () => {
    let cluster: PostgresCluster;
    let llama: LlamaServer;
    let admin: PostgresBackend;
    let fronts: Array<Awaited<ReturnType<typeof spawnServer>>> = [];
    let key: {secret: string, workspaceId: string};
    const received = new Map<string, ReceivedAnswer>();

    before(async () => {
        const modelPath = await ensureTinyGguf();
        cluster = await startPostgresCluster();
        // llama-server as the setup ran it: 4 slots, its default HTTP threads and keep-alive.
        llama = await startLlamaServer(modelPath, {parallel: 4, args: ["-fa", "off"]});
        admin = await PostgresBackend.open(cluster.url, {front: "test"});
        for (const price of testPrices) await admin.setPrice(price);
        const workspace = await admin.createWorkspace((await admin.createOrganization("load")).id, "bursts");
        await admin.activateWorkspace(workspace.id);
        await admin.addCredits(workspace.id, 500_000_000);
        key = {secret: (await admin.createKey({workspaceId: workspace.id})).secret, workspaceId: workspace.id};
        // Decisions are not under test: an absent tokenizer spares each front the vocabulary's load.
        fronts = await Promise.all([1, 2, 3].map((index) => spawnServer(["--upstream", `${llama.url}/v1`, "--upstream-tokenizer", `${modelPath}.absent`,
            "--database", cluster.url, "--front-name", `load-${index}`])));
    }, {timeout: 30 * 60_000});

    after(async () => {
        for (const front of fronts) await front.close();
        await admin?.close();
        await llama?.close();
        await cluster?.remove();
    });

    /** One request of the kind `index` picks (chat, streamed chat, legacy completion); its usage once whole, or its error. */
    const send = async (front: {url: string}, traceId: string, index: number): Promise<{status: number, error?: string}> => {
        const client = new OpenAI({baseURL: `${front.url}/svc-1/v1`, apiKey: key.secret, maxRetries: 0, timeout: 60_000});
        const options = {headers: {"X-Client-Trace-Id": traceId}};
        let usage: AnyUsage | undefined;
        try {
            if (index % 3 === 0) usage = (await client.chat.completions.create({model: "svc-1", messages: [{role: "user", content: `Hi ${index % 7}`}], max_tokens: 4}, options)).usage;
            else if (index % 3 === 1) usage = (await client.completions.create({model: "svc-1", prompt: `Once upon ${index % 5}`, max_tokens: 4}, options)).usage;
            else {
                const chunks = await client.chat.completions.create({model: "svc-1", messages: [{role: "user", content: "Hello"}], max_tokens: 4, stream: true,
                    stream_options: {include_usage: true}}, options);
                for await (const chunk of chunks) usage = chunk.usage ?? usage;
            }
        } catch (error) {
            const apiError = error as {status?: number, message?: string};
            return {status: apiError.status ?? 0, error: apiError.message};
        }
        assert.ok(usage != null, `${traceId} reported its usage`);
        received.set(traceId, {usage, model: "svc-1", workspaceId: key.workspaceId});
        return {status: 200};
    };

    test("five bursts: every request answered (no 502), each charged once at its usage, the balance exact", async () => {
        for (const [round, pause] of pausesMs.entries()) {
            await sleep(pause);
            const started = performance.now();
            const results = await Promise.all(Array.from({length: burst}, (_, index) => send(fronts[index % 3], `burst-${round}-${index}`, index)));
            const failed = results.filter((result) => result.status !== 200);
            const statuses = failed.map((result) => result.status);
            assert.equal(statuses.filter((status) => status === 502).length, 0, `burst ${round} after ${pause} ms idle: 502s: ${failed.map((result) => result.error).join("; ")}`);
            assert.deepEqual(failed, [], `burst ${round}: all ${burst} answered`);
            console.log(`burst ${round} after ${pause} ms idle: ${burst} answered in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        }
        const {rows, unseen} = await assertPostgresLedgerExact(admin.db, received);
        assert.deepEqual({rows, unseen}, {rows: burst * pausesMs.length, unseen: 0});
        const [{held}] = await admin.db.query<{held: number}>("SELECT SUM(held_micros) AS held FROM workspaces");
        assert.equal(held, 0, "no credit left held once every request is over");
    });
});
