import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {activateWorkspace, addCredits, createOrganization, createWorkspace} from "../../native/service/accounts.ts";
import {createKey} from "../../native/service/keys.ts";
import {setPrice, setRateLimit} from "../../native/service/pricing.ts";
import {ServiceStore} from "../../native/service/store.ts";
import {SqliteBackend} from "../../native/service/sqliteBackend.ts";
import {spawnServer} from "../support/spawnServer.ts";
import {gateRunner} from "./gateTimes.ts";
import {median} from "./measure.ts";
import {createJsonPoster} from "./postJson.ts";

/**
 * Benchmark: what workspace mode costs per request. Two `serve` processes on the same model, one whose
 * data folder holds no workspace (open: the gate only counts metrics) and one in workspace mode (key lookup and
 * hash, workspace, price and rate-limit reads, hold, and the charge's SQLite transaction before the answer). The
 * same request goes to each in turn, alternating which goes first, so the shared VM's drift hits both alike.
 * Goal: >= 0.97 of the requests/s and <= 0.3 ms median added per request.
 */
export async function meteringOverhead(modelPath: string, threads: number, requests: number, rounds: number) {
    const offDir = await mkdtemp(path.join(tmpdir(), "svc-bench-off-"));
    const onDir = await mkdtemp(path.join(tmpdir(), "svc-bench-on-"));
    // As the server opens it: checkpoints in the background (store.ts, WalCheckpointer).
    const store = ServiceStore.open(onDir, {backgroundCheckpoints: true});
    const workspace = createWorkspace(store, createOrganization(store, "bench").id, "bench");
    activateWorkspace(store, workspace.id);
    addCredits(store, workspace.id, 1_000_000_000_000);
    setPrice(store, {model: "svc-1", inputMicrosPerMillion: 150_000, cachedInputMicrosPerMillion: 75_000, outputMicrosPerMillion: 600_000});
    setRateLimit(store, {workspaceId: workspace.id, model: "svc-1", requestsPerMinute: 1_000_000, tokensPerMinute: 1_000_000_000});
    const {secret} = createKey(store, {workspaceId: workspace.id});
    await gateAlone(store, secret);
    await store.close();

    const args = ["--model", modelPath, "--threads", String(threads), "--gpu", "off", "--parallel", "1", "--context-size", "512"];
    const off = await spawnServer([...args, "--data-dir", offDir]);
    const on = await spawnServer([...args, "--data-dir", onDir]);
    try {
        const cases = [
            {name: "GET /models (no charge)", body: undefined, path: "/svc-1/v1/models"},
            {name: "completion, 4 tokens (charged)", path: "/svc-1/v1/completions", body: JSON.stringify({model: "svc-1", prompt: "Once upon a time", max_tokens: 4, temperature: 0})},
            // A request of a more usual length: the gate's cost is per request, so its share falls as the work grows.
            {name: "completion, 64 tokens (charged)", path: "/svc-1/v1/completions", body: JSON.stringify({model: "svc-1", prompt: "Once upon a time", max_tokens: 64, temperature: 0})}
        ];
        console.log(`${rounds} rounds of ${requests} request pairs (off, on; sequential); node:http keep-alive client. ` +
            "on/off: requests/s ratio, median of rounds; added: median of the pairs' latency differences");
        console.log(`\n${"case".padEnd(34)}${"req/s off".padStart(10)}${"req/s on".padStart(10)}${"on/off".padStart(8)}${"median ms off".padStart(15)}${"on".padStart(8)}${"added".padStart(8)}`);
        for (const {name, path: urlPath, body} of cases) {
            const send = {
                off: createCaller(`${off.url}${urlPath}`, {}, body),
                on: createCaller(`${on.url}${urlPath}`, {Authorization: `Bearer ${secret}`}, body)
            };
            for (const mode of ["off", "on"] as const) for (let warm = 0; warm < 20; warm++) await send[mode]();
            // Request by request, off and on in turn (alternating which goes first), so both see the same moment of
            // the machine; a round's requests/s is its requests over the time they took.
            const ratios: number[] = [];
            const added: number[] = [];
            const latencies = {off: [] as number[], on: [] as number[]};
            for (let round = 0; round < rounds; round++) {
                const spent = {off: 0, on: 0};
                for (let index = 0; index < requests; index++) {
                    const pair: Record<"off" | "on", number> = {off: 0, on: 0};
                    for (const mode of (round + index) % 2 === 0 ? ["off", "on"] as const : ["on", "off"] as const) {
                        const before = performance.now();
                        await send[mode]();
                        pair[mode] = performance.now() - before;
                        latencies[mode].push(pair[mode]);
                        spent[mode] += pair[mode];
                    }
                    added.push(pair.on - pair.off);
                }
                ratios.push(spent.off / spent.on);
            }
            const rate = (mode: "off" | "on") => 1000 / (latencies[mode].reduce((sum, ms) => sum + ms, 0) / latencies[mode].length);
            console.log(`${name.padEnd(34)}${rate("off").toFixed(1).padStart(10)}${rate("on").toFixed(1).padStart(10)}${median(ratios).toFixed(3).padStart(8)}` +
                `${median(latencies.off).toFixed(3).padStart(15)}${median(latencies.on).toFixed(3).padStart(8)}${median(added).toFixed(3).padStart(8)}`);
        }
    } finally {
        await off.close();
        await on.close();
        await rm(offDir, {recursive: true, force: true});
        await rm(onDir, {recursive: true, force: true});
    }
}

/**
 * The gate's own work for one request (admit: key, workspace, price, limits, hold; settle: the charge's transaction),
 * timed in process without HTTP: the part of the added time that does not depend on how busy the VM's cores are.
 */
async function gateAlone(store: ServiceStore, secret: string) {
    const times = await (await gateRunner(new SqliteBackend(store), secret))(5_000);
    const sorted = times.slice(500).sort((a, b) => a - b);
    console.log(`in process, the gate alone (admit + settle, ${sorted.length} requests): median ${median(sorted).toFixed(3)} ms, ` +
        `p99 ${sorted[Math.floor(sorted.length * 0.99)].toFixed(3)} ms`);
}

/** A keep-alive GET (no body) or POST that must answer 200. */
function createCaller(url: string, headers: Record<string, string>, body: string | undefined): () => Promise<unknown> {
    const call = createJsonPoster(url, {headers, method: body == null ? "GET" : "POST"});
    return () => call(body ?? "");
}
