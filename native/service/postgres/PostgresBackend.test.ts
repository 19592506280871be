// The service store on a real PostgreSQL (a throwaway cluster), with several backends on one database standing in
// for several fronts: migrations, the admin operations, the overdraft bound, shared rate-limit buckets, expiring
// holds, and the 503 while the database is down.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {execFile} from "node:child_process";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {promisify} from "node:util";
import {postgresMissing, startPostgresCluster, type PostgresCluster} from "../../../test/support/postgresCluster.ts";
import {holdMicros} from "../billing.ts";
import {migrations} from "../store.ts";
import {PostgresBackend} from "./PostgresBackend.ts";

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../cli/bin.mjs");
const price = {model: "svc-1", inputMicrosPerMillion: 3_000_000, cachedInputMicrosPerMillion: 500_000, outputMicrosPerMillion: 7_000_000};

describe("PostgreSQL service store", {skip: postgresMissing}, () => {
    let cluster: PostgresCluster;
    let fronts: PostgresBackend[] = [];
    const open = async (options: Parameters<typeof PostgresBackend.open>[1] = {}) => {
        const backend = await PostgresBackend.open(cluster.url, options);
        fronts.push(backend);
        return backend;
    };
    /** An activated workspace with `credits`, a price for svc-1 and a key, through the first backend. */
    const workspace = async (backend: PostgresBackend, name: string, credits: number) => {
        const organization = (await backend.listOrganizations())[0] ?? await backend.createOrganization("acme");
        const created = await backend.createWorkspace(organization.id, name);
        await backend.activateWorkspace(created.id);
        await backend.addCredits(created.id, credits);
        await backend.setPrice(price);
        const {key, secret} = await backend.createKey({workspaceId: created.id});
        return {id: created.id, keyId: key.id, secret, lookup: key.hint.slice(3, 15)};
    };
    const totals = async (workspaceId: string) => JSON.parse(await cluster.psql(`SELECT json_build_object('balance', balance_micros, 'held', held_micros,
        'credits', (SELECT SUM(amount_micros) FROM credits WHERE workspace_id = w.id), 'ledger', (SELECT COALESCE(SUM(cost_micros), 0) FROM usage WHERE workspace_id = w.id),
        'holds', (SELECT COUNT(*) FROM holds WHERE workspace_id = w.id)) FROM workspaces w WHERE id = '${workspaceId}'`)) as
        {balance: number, held: number, credits: number, ledger: number, holds: number};

    before(async () => {
        cluster = await startPostgresCluster();
    });
    after(async () => {
        for (const front of fronts) await front.close();
        await cluster?.remove();
    });

    test("migrations: three fronts starting together migrate once, to the SQLite schema's version; a newer database is refused", async () => {
        fronts = await Promise.all([open({front: "a"}), open({front: "b"}), open({front: "c"})]).then(() => fronts);
        assert.equal(await cluster.psql("SELECT version FROM svc_schema_version"), String(migrations.length));
        assert.deepEqual(await fronts[0].migrate(), {from: migrations.length, to: migrations.length});
        await cluster.psql(`UPDATE svc_schema_version SET version = ${migrations.length + 1}`);
        await assert.rejects(PostgresBackend.open(cluster.url), {code: "schema_too_new"});
        await cluster.psql(`UPDATE svc_schema_version SET version = ${migrations.length}`);
    });

    test("admin operations answer as on SQLite: names, conflicts, key owners and rotation, limits, usage", async () => {
        const [one, two] = fronts;
        const organization = await one.createOrganization("acme");
        await assert.rejects(two.createOrganization(" acme "), {code: "conflict"});
        const created = await two.createWorkspace("acme", "research");
        assert.equal((await one.requireWorkspace("acme/research")).id, created.id);
        assert.equal(created.activatedAt, null);
        assert.equal((await one.addCredits(created.id, 2_500_000)).balanceMicros, 2_500_000);
        assert.equal((await two.requireWorkspace("research")).creditedMicros, 2_500_000);
        const ada = await one.createKey({workspaceId: created.id, owner: {type: "user", userId: "ada"}, visibility: "private"});
        const shared = await two.createKey({workspaceId: created.id, name: "team"});
        assert.match(ada.secret, /^ck_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
        assert.deepEqual((await one.listKeys({userId: "bob"})).map((key) => key.id), [shared.key.id]);
        const rotated = await two.rotateKey(ada.key.id);
        assert.notEqual(rotated.secret, ada.secret);
        assert.equal((await one.revokeKey(ada.key.id)).state, "revoked");
        await assert.rejects(one.rotateKey(ada.key.id), {code: "conflict"});
        assert.deepEqual(await one.setRateLimit({workspaceId: created.id, model: "svc-1", requestsPerMinute: 60, tokensPerMinute: null}),
            {workspaceId: created.id, model: "svc-1", requestsPerMinute: 60, tokensPerMinute: null});
        await assert.rejects(one.setPrice({...price, model: "svc-1-decision"}), {code: "invalid"});
        assert.deepEqual(await two.usageReport({groupBy: ["model"]}), []);
        assert.equal(organization.name, "acme");
    });

    test("overdraft bound: three fronts racing on one workspace never take its balance below minus one hold; balance = credits − ledger", async () => {
        const hold = holdMicros("svc-1", 1000, price);
        const ws = await workspace(fronts[0], "racing", Math.floor(hold * 30.5));
        const admission = (await fronts[0].admission(ws.lookup, "svc-1"))!;
        let charged = 0, refused = 0, sequence = 0;
        // Each front runs 12 clients that reserve, then charge between half a hold and a whole one, until refused.
        await Promise.all(fronts.flatMap((front, frontIndex) => Array.from({length: 12}, async (_, client) => {
            for (;;) {
                let taken;
                try {
                    taken = await front.reserve(admission.workspace, hold);
                } catch (error) {
                    assert.equal((error as {status?: number}).status, 402);
                    refused++;
                    return;
                }
                await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
                const cost = Math.ceil(hold * (0.5 + Math.random() / 2));
                const tokens = {uncachedInputTokens: 10, cachedInputTokens: 0, outputTokens: 1};
                assert.equal(await front.settle(taken, {requestId: `race-${frontIndex}-${client}-${sequence++}`, workspaceId: ws.id, keyId: ws.keyId,
                    model: "svc-1", endpoint: "/v1/chat/completions", tokens, costMicros: cost}, admission.limit), true);
                charged++;
            }
        })));
        const state = await totals(ws.id);
        assert.ok(state.balance > -hold, `balance ${state.balance} > −${hold}`);
        assert.ok(state.balance <= 0, "the credit was used up");
        assert.equal(state.balance, state.credits - state.ledger);
        assert.deepEqual([state.held, state.holds], [0, 0]);
        assert.equal(refused, 36);
        assert.ok(charged >= 31, `${charged} charges`);
        console.log(`3 fronts x 12 clients: ${charged} charges, hold ${hold} µ, credit ${state.credits} µ, final balance ${state.balance} µ (bound −${hold} µ)`);
    });

    test("a charge is written once: settling the same request id twice charges once", async () => {
        const ws = await workspace(fronts[0], "once", 1_000_000);
        const admission = (await fronts[1].admission(ws.lookup, "svc-1"))!;
        const charge = {requestId: "same", workspaceId: ws.id, keyId: ws.keyId, model: "svc-1", endpoint: "/v1/completions",
            tokens: {uncachedInputTokens: 1, cachedInputTokens: 0, outputTokens: 1}, costMicros: 10};
        assert.equal(await fronts[1].settle(await fronts[1].reserve(admission.workspace, 100), charge, admission.limit), true);
        assert.equal(await fronts[2].settle(await fronts[2].reserve(admission.workspace, 100), charge, admission.limit), false);
        const state = await totals(ws.id);
        assert.deepEqual([state.balance, state.ledger, state.held], [1_000_000 - 10, 10, 0]);
    });

    test("rate limits: 30 requests a minute means 30 across all fronts, each admitted with its hold, a refused one without", async () => {
        const created = await workspace(fronts[0], "limited", 1_000_000);
        const ws = {...created, ...(await fronts[0].admission(created.lookup, "svc-1"))!.workspace};
        const limit = await fronts[0].setRateLimit({workspaceId: ws.id, model: "svc-1", requestsPerMinute: 30, tokensPerMinute: null});
        const results = await Promise.allSettled(Array.from({length: 90}, (_, index) => fronts[index % 3].reserve(ws, 1, limit)));
        const admitted = results.filter((result) => result.status === "fulfilled").length;
        // The burst, plus what refills (one every 2 s) while the 90 run.
        assert.ok(admitted >= 30 && admitted <= 31, `${admitted} admitted`);
        const refusal = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
        assert.equal(refusal.reason.status, 429);
        assert.ok(refusal.reason.retryAfter >= 1);
        // A refused request's hold is let go without waiting (release is fire and forget): give it a moment.
        const held = async () => Number(await cluster.psql(`SELECT held_micros FROM workspaces WHERE id = '${ws.id}'`));
        for (let waited = 0; await held() !== admitted && waited < 2_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(await held(), admitted, "a refused request holds nothing");

        // Tokens a minute: a settled request's tokens leave the shared bucket; once it is overdrawn, every front refuses.
        const tokenLimit = await fronts[0].setRateLimit({workspaceId: ws.id, model: "svc-1-decision", requestsPerMinute: null, tokensPerMinute: 100});
        const admission = (await fronts[1].admission(ws.lookup, "svc-1-decision"))!;
        await fronts[1].settle(await fronts[1].reserve(admission.workspace, 1_000, tokenLimit), {requestId: "big", workspaceId: ws.id, keyId: ws.keyId, model: "svc-1-decision",
            endpoint: "/v1/decisions", tokens: {uncachedInputTokens: 150, cachedInputTokens: 0, outputTokens: 0}, costMicros: 1}, tokenLimit);
        await assert.rejects(fronts[2].reserve(admission.workspace, 1_000, tokenLimit), {status: 429, code: "rate_limit_exceeded", message: /100 tokens per minute/});
    });

    test("a killed front's holds expire: another front gives their credit back", async () => {
        const ws = await workspace(fronts[0], "leases", 1_000_000);
        const doomed = await PostgresBackend.open(cluster.url, {front: "doomed", leaseMs: 400});
        const admission = (await doomed.admission(ws.lookup, "svc-1"))!;
        await doomed.reserve(admission.workspace, 5_000);
        await doomed.reserve(admission.workspace, 7_000);
        assert.equal((await totals(ws.id)).held, 12_000);
        // Closed without releasing: its leases are no longer renewed, as if it were killed.
        await doomed.close();
        const sweeper = await open({front: "sweeper", leaseMs: 400});
        for (let waited = 0; (await totals(ws.id)).held > 0; waited += 100) {
            assert.ok(waited < 5_000, "the holds expired");
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.deepEqual([(await totals(ws.id)).holds, sweeper.kind], [0, "postgres"]);
    });

    test("the CLI on the same database: admin migrate reports the version; a key it revokes is refused at the next admission", async () => {
        const ws = await workspace(fronts[0], "cli", 1_000_000);
        const cli = (...args: string[]) => promisify(execFile)(process.execPath, [bin, "admin", ...args, "--database", cluster.url, "--json"]);
        assert.deepEqual(JSON.parse((await cli("migrate")).stdout), {location: cluster.url, from: migrations.length, to: migrations.length});
        assert.equal((await fronts[1].admission(ws.lookup, "svc-1"))?.key.revokedAt, null);
        assert.equal(JSON.parse((await cli("keys", "revoke", ws.keyId)).stdout).state, "revoked");
        assert.notEqual((await fronts[2].admission(ws.lookup, "svc-1"))?.key.revokedAt, null);
    });

    test("the database down: calls fail at once with the spec's 503, and the same backend serves again once it is back", async () => {
        const ws = await workspace(fronts[0], "outage", 1_000_000);
        await cluster.stop("fast");
        try {
            const started = performance.now();
            await assert.rejects(fronts[1].admission(ws.lookup, "svc-1"), {status: 503, code: "service_unavailable", type: "api_error"});
            await assert.rejects(fronts[2].listWorkspaces(), {status: 503});
            assert.ok(performance.now() - started < 7_000, "no hang");
        } finally {
            await cluster.start();
        }
        assert.equal((await fronts[1].admission(ws.lookup, "svc-1"))?.workspace.id, ws.id);
    });
});
