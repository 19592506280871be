// Crash safety: `svc-studio serve` in its own process, SIGKILLed 10 times at random points under load and
// started again on the same data folder. Usage is committed before a response's last bytes, in one transaction with
// the balance change, so every answer a client received whole is in the ledger, exactly once, and each balance
// still equals its credits less its charges.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import {meteredTokens, type AnyUsage} from "../../protocol/usage.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {spawnServer} from "../support/spawnServer.ts";
import {addWorkspace, ledgerByTrace, ledgerState, openTeamStore, setTestPrices} from "./utils/teamServer.ts";

let team: Awaited<ReturnType<typeof openTeamStore>>;
let modelPath: string;

before(async () => {
    team = await openTeamStore();
    modelPath = await ensureTinyGguf();
});
after(async () => {
    await team?.remove();
});

const kills = 10;

/** Clients that keep sending until told to stop; each answer received whole is recorded with its usage. */
function startLoad(url: string, keys: string[], round: number, received: Map<string, AnyUsage>) {
    let stopped = false;
    let sent = 0;
    let inFlight = 0;
    const loop = async (client: number) => {
        while (!stopped) {
            const traceId = `r${round}-c${client}-${sent++}`;
            const api = new OpenAI({baseURL: `${url}/svc-1/v1`, apiKey: keys[client % keys.length], maxRetries: 0, timeout: 30_000});
            const options = {headers: {"X-Client-Trace-Id": traceId}};
            inFlight++;
            try {
                if (client % 2 === 0) {
                    const completion = await api.chat.completions.create({model: "svc-1", messages: [{role: "user", content: `Hi ${sent % 5}`}], max_tokens: 4}, options);
                    received.set(traceId, completion.usage!);
                } else {
                    // Streamed: complete for the client once the usage chunk has arrived, which is sent after the charge.
                    const stream = await api.chat.completions.create({model: "svc-1", messages: [{role: "user", content: "Hello"}], max_tokens: 4,
                        stream: true, stream_options: {include_usage: true}}, options);
                    for await (const chunk of stream) if (chunk.usage != null) received.set(traceId, chunk.usage);
                }
            } catch {
                if (stopped) return;
                await new Promise((resolve) => setTimeout(resolve, 20));
            } finally {
                inFlight--;
            }
        }
    };
    const loops = Array.from({length: 6}, (_, client) => loop(client));
    return {inFlight: () => inFlight, stop: async () => {
        stopped = true;
        await Promise.all(loops);
    }};
}

test(`SIGKILL under load ${kills} times, restart: no committed usage lost, nothing charged twice, balances exact`, async () => {
    const {store, dataDir} = team;
    setTestPrices(store);
    const one = addWorkspace(store, {name: "one"});
    const two = addWorkspace(store, {name: "two"});
    const keys = [one.secret, two.secret];
    const args = ["--model", modelPath, "--data-dir", dataDir, "--threads", "1", "--gpu", "off", "--parallel", "2", "--max-queue", "64", "--context-size", "256"];
    const received = new Map<string, AnyUsage>();
    let cut = 0;

    for (let round = 0; round < kills; round++) {
        const server = await spawnServer(args);
        const load = startLoad(server.url, keys, round, received);
        // Somewhere in the middle of the load: after a random number of answers, then a random moment.
        const before = received.size;
        const waitFor = 5 + Math.floor(Math.random() * 30);
        while (received.size < before + waitFor) await new Promise((resolve) => setTimeout(resolve, 5));
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
        const exited = new Promise((resolve) => setTimeout(resolve, 5_000));
        cut += load.inFlight();
        process.kill(server.pid, "SIGKILL");
        await Promise.race([server.close(), exited]);
        await load.stop();
    }

    // Started once more, it opens the same file and serves.
    const server = await spawnServer(args);
    const final = new OpenAI({baseURL: `${server.url}/svc-1/v1`, apiKey: one.secret, maxRetries: 0});
    const last = await final.chat.completions.create({model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 2}, {headers: {"X-Client-Trace-Id": "final"}});
    received.set("final", last.usage!);
    await server.close();

    assert.equal(store.db.pragma("integrity_check", {simple: true}), "ok");
    const ledger = ledgerByTrace(store);
    let lost = 0;
    for (const [traceId, usage] of received) {
        const rows = ledger.get(traceId) ?? [];
        if (rows.length === 0) lost++;
        assert.ok(rows.length <= 1, `${traceId} charged ${rows.length} times`);
        const tokens = meteredTokens(usage);
        if (rows.length === 1) assert.deepEqual([rows[0].uncached, rows[0].cached, rows[0].output], [tokens.uncachedInputTokens, tokens.cachedInputTokens, tokens.outputTokens]);
    }
    assert.equal(lost, 0, "every answer received whole was charged");
    for (const rows of ledger.values()) assert.equal(rows.length, 1, "no request charged twice");
    const unseen = [...ledger.keys()].filter((traceId) => !received.has(traceId)).length;
    for (const state of ledgerState(store)) assert.equal(state.balance, state.credits - state.cost, `${state.workspaceId}: balance = credits − cost`);
    assert.ok(cut >= kills, `the kills cut requests in flight (${cut})`);
    console.log(`${kills} kills with ${cut} requests in flight: ${received.size} answers received, all ${received.size} in the ledger once; ${unseen} more charged whose answer ` +
        "the kill cut off (spec §6.3: a request may be charged when its client does not get the answer)");
});
