// Several fronts on one PostgreSQL database: three `svc-studio serve --upstream --database` processes in front of one
// real llama-server, with a throwaway PostgreSQL cluster. The ledger must be exact across fronts, a rate limit must
// hold across them, a revocation through one must hold on the others, and neither a front killed under load nor a
// database restarted under load may lose or double a charge.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import type {AnyUsage} from "../../protocol/usage.ts";
import {PostgresBackend} from "../../native/service/postgres/PostgresBackend.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {postgresMissing, startPostgresCluster, type PostgresCluster} from "../support/postgresCluster.ts";
import {spawnServer} from "../support/spawnServer.ts";
import {startLlamaServer, type LlamaServer} from "../support/startLlamaServer.ts";
import {testPrices} from "./utils/teamServer.ts";
import {assertPostgresLedgerExact, type ReceivedAnswer} from "./utils/postgresLedger.ts";

const adminKey = "adm-fronts-0123456789";
type Front = Awaited<ReturnType<typeof spawnServer>> & {name: string};
type Key = {secret: string, workspaceId: string, keyId: string};

describe("three fronts on one PostgreSQL database", {skip: postgresMissing}, () => {
    let cluster: PostgresCluster;
    let llama: LlamaServer;
    let admin: PostgresBackend;
    let modelPath: string;
    const fronts: Front[] = [];
    const keys: Record<"one" | "two" | "limited", Key> = {} as never;
    /** Every answer a client received whole, by trace id, with the usage it reported. */
    const received = new Map<string, ReceivedAnswer>();

    const startFront = async (name: string): Promise<Front> => {
        // Decisions are not under test here: a tokenizer path that is absent spares each start the vocabulary's load
        // (half of a restart's time on two cores), and decisions answer 503 meanwhile.
        const server = await spawnServer(["--upstream", `${llama.url}/v1`, "--upstream-tokenizer", `${modelPath}.absent`, "--database", cluster.url,
            "--front-name", name, "--admin-key", adminKey]);
        return {...server, name};
    };
    const api = (front: Front, key: Key) => new OpenAI({baseURL: `${front.url}/svc-1/v1`, apiKey: key.secret, maxRetries: 0, timeout: 20_000});
    /** One small request of the kind picked by `index`; records the answer when it arrives whole. */
    const send = async (front: Front, key: Key, traceId: string, index: number, {stream = true} = {}) => {
        const client = api(front, key);
        const options = {headers: {"X-Client-Trace-Id": traceId}};
        const kind = index % (stream ? 3 : 2);
        let usage: AnyUsage | undefined;
        if (kind === 0) usage = (await client.chat.completions.create({model: "svc-1", messages: [{role: "user", content: `Hi ${index % 7}`}], max_tokens: 3}, options)).usage;
        else if (kind === 1) usage = (await client.completions.create({model: "svc-1", prompt: `Once upon ${index % 5}`, max_tokens: 3}, options)).usage;
        else {
            const chunks = await client.chat.completions.create({model: "svc-1", messages: [{role: "user", content: "Hello"}], max_tokens: 3, stream: true,
                stream_options: {include_usage: true}}, options);
            for await (const chunk of chunks) usage = chunk.usage ?? usage;
        }
        assert.ok(usage != null, `${traceId} reported its usage`);
        received.set(traceId, {usage, model: "svc-1", workspaceId: key.workspaceId});
    };
    const assertLedgerExact = () => assertPostgresLedgerExact(admin.db, received);

    before(async () => {
        modelPath = await ensureTinyGguf();
        cluster = await startPostgresCluster();
        // HTTP threads enough for the three fronts' connections, so none waits in llama-server's accept queue.
        llama = await startLlamaServer(modelPath, {parallel: 4, args: ["-fa", "off", "--threads-http", "32"]});
        // Set up through the store, as `svc-studio admin --database` does, before the fronts start (workspace mode).
        admin = await PostgresBackend.open(cluster.url, {front: "test"});
        for (const price of testPrices) await admin.setPrice(price);
        const organization = await admin.createOrganization("acme");
        for (const [name, credits] of [["one", 60_000_000], ["two", 40_000_000], ["limited", 10_000_000]] as const) {
            const workspace = await admin.createWorkspace(organization.id, name);
            await admin.activateWorkspace(workspace.id);
            await admin.addCredits(workspace.id, credits);
            const {key, secret} = await admin.createKey({workspaceId: workspace.id});
            keys[name] = {secret, workspaceId: workspace.id, keyId: key.id};
        }
        await admin.setRateLimit({workspaceId: keys.limited.workspaceId, model: "svc-1", requestsPerMinute: 60, tokensPerMinute: null});
        fronts.push(...await Promise.all(["front-1", "front-2", "front-3"].map(startFront)));
    }, {timeout: 30 * 60_000});

    after(async () => {
        for (const front of fronts) await front.close();
        await admin?.close();
        await llama?.close();
        await cluster?.remove();
    });

    test("300 concurrent requests over three fronts: the ledger is the responses' usage at the prices, to the micro-unit", async () => {
        const started = performance.now();
        const work = [keys.one, keys.two];
        // No client retries: a kept-alive connection llama-server closed under this load is the fronts' to deal with.
        await Promise.all(Array.from({length: 300}, (_, index) => send(fronts[index % 3], work[index % 2], `load-${index}`, index)));
        const {rows} = await assertLedgerExact();
        assert.equal(rows, 300);
        const metrics = await (await fetch(`${fronts[2].url}/metrics`, {headers: {Authorization: `Bearer ${adminKey}`}})).text();
        assert.match(metrics, /svc_http_requests_total\{endpoint="\/svc-1\/v1\/chat\/completions",status="200",front="front-3"\} \d+/);
        console.log(`300 requests over 3 fronts in ${((performance.now() - started) / 1000).toFixed(1)} s, all in the ledger once`);
    });

    test("a 60-rpm limit holds across the fronts: one bucket's burst, not three", async () => {
        const started = performance.now();
        const statuses = await Promise.all(Array.from({length: 150}, async (_, index) =>
            (await fetch(`${fronts[index % 3].url}/svc-1/v1/models`, {headers: {Authorization: `Bearer ${keys.limited.secret}`}})).status));
        const seconds = (performance.now() - started) / 1000;
        const admitted = statuses.filter((status) => status === 200).length;
        assert.equal(statuses.filter((status) => status !== 200 && status !== 429).length, 0, statuses.join(","));
        // The burst of 60, plus one a second of refill while the 150 ran.
        assert.ok(admitted >= 60 && admitted <= 60 + Math.ceil(seconds) + 1, `${admitted} admitted in ${seconds.toFixed(1)} s`);
    });

    test("a key revoked through front 1 is refused by front 3 on its next request", async () => {
        const {key, secret} = await admin.createKey({workspaceId: keys.two.workspaceId, name: "short-lived"});
        const fresh = {...keys.two, secret, keyId: key.id};
        await send(fronts[2], fresh, "before-revoke", 0);
        const revoked = await fetch(`${fronts[0].url}/admin/v1/keys/${key.id}/revoke`, {method: "POST",
            headers: {"Authorization": `Bearer ${adminKey}`, "Content-Type": "application/json"}, body: "{}"});
        assert.equal(revoked.status, 200);
        await assert.rejects(api(fronts[2], fresh).chat.completions.create({model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 2}),
            {status: 401, code: "invalid_api_key"});
    });

    test("a front SIGKILLed under load ten times: nothing lost, nothing charged twice, the others keep serving", async () => {
        let stopped = false, sent = 0;
        const served = [0, 0, 0];
        const loop = async (client: number) => {
            while (!stopped) {
                const frontIndex = client % 3;
                const traceId = `kill-${client}-${sent++}`;
                try {
                    await send(fronts[frontIndex], client % 2 === 0 ? keys.one : keys.two, traceId, sent);
                    served[frontIndex]++;
                } catch {
                    await new Promise((resolve) => setTimeout(resolve, 20));
                }
                // Load, not saturation: the two cores also restart the killed fronts.
                await new Promise((resolve) => setTimeout(resolve, 25));
            }
        };
        const loops = Array.from({length: 6}, (_, client) => loop(client));
        const started = performance.now();
        // The fronts are killed in turn, each started again while the next is killed; the others serve meanwhile.
        const restarting: Array<Promise<void> | undefined> = [undefined, undefined, undefined];
        for (let round = 0; round < 10; round++) {
            const victim = round % 3;
            await restarting[victim];
            const before = served[victim];
            while (served[victim] < before + 2) await new Promise((resolve) => setTimeout(resolve, 5));
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 30));
            process.kill(fronts[victim].pid, "SIGKILL");
            const othersBefore = served.reduce((sum, count) => sum + count, 0) - served[victim];
            restarting[victim] = fronts[victim].close().then(async () => void (fronts[victim] = await startFront(`front-${victim + 1}`)));
            while (served.reduce((sum, count) => sum + count, 0) - served[victim] === othersBefore) await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await Promise.all(restarting);
        stopped = true;
        await Promise.all(loops);
        const {unseen} = await assertLedgerExact();
        console.log(`10 kills in ${((performance.now() - started) / 1000).toFixed(1)} s: ${received.size} answers in all, each in the ledger once; ${unseen} more charged whose answer a kill cut off`);
    });

    test("PostgreSQL restarted under load: 503 service_unavailable while down, no 500 nor hang, the fronts recover without a restart", async () => {
        let stopped = false, sent = 0;
        const failures: Array<{status?: number, code?: unknown, ms: number}> = [];
        let servedAfter = new Set<number>();
        let down = false;
        const loop = async (client: number) => {
            while (!stopped) {
                const frontIndex = client % 3;
                const started = performance.now();
                try {
                    await send(fronts[frontIndex], client % 2 === 0 ? keys.one : keys.two, `restart-${client}-${sent++}`, sent, {stream: false});
                    if (!down) servedAfter.add(frontIndex);
                } catch (error) {
                    const apiError = error as {status?: number, code?: unknown};
                    failures.push({status: apiError.status, code: apiError.code, ms: performance.now() - started});
                    await new Promise((resolve) => setTimeout(resolve, 50));
                }
            }
        };
        const loops = Array.from({length: 6}, (_, client) => loop(client));
        await new Promise((resolve) => setTimeout(resolve, 500));
        down = true;
        await cluster.stop("fast");
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        await cluster.start();
        down = false;
        servedAfter = new Set();
        for (let waited = 0; servedAfter.size < 3; waited += 100) {
            assert.ok(waited < 15_000, `fronts serving again: ${[...servedAfter].join(", ")}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
        stopped = true;
        await Promise.all(loops);
        assert.ok(failures.length > 0, "requests were refused while the database was down");
        for (const failure of failures) {
            assert.deepEqual([failure.status, failure.code], [503, "service_unavailable"]);
            assert.ok(failure.ms < 10_000, `answered in ${failure.ms.toFixed(0)} ms`);
        }
        await assertLedgerExact();
        console.log(`database down 2 s: ${failures.length} requests answered 503 service_unavailable (slowest ${Math.max(...failures.map((failure) => failure.ms)).toFixed(0)} ms); all 3 fronts served again`);
    });
});
