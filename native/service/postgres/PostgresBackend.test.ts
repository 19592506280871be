// The service store on a real PostgreSQL (a throwaway cluster), with several backends on one database standing in
// for several fronts: migrations, the admin operations, admission in one statement, the overdraft bound, shared
// rate-limit buckets, expiring holds, and the 503 while the database is down.
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
        if (credits > 0) await backend.addCredits(created.id, credits);
        await backend.setPrice(price);
        const {key, secret} = await backend.createKey({workspaceId: created.id});
        return {id: created.id, keyId: key.id, secret, lookup: key.hint.slice(3, 15)};
    };
    /** A request's admission as the gate asks for it, with `secret` and a hold of `holdTokens` tokens. */
    const admit = (backend: PostgresBackend, secret: string, {model = "svc-1", holdTokens = 1000, keyActivationMs = 0} = {}) =>
        backend.admit({token: secret, lookup: secret.slice(3, 15), model, holdTokens, keyActivationMs, now: Date.now()});
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

    test("admission in one statement: a key that may not call holds nothing; the hold is holdMicros' to the micro-unit; 402 and 429", async () => {
        const ws = await workspace(fronts[0], "one-statement", 1_000_000);
        const wrongSecret = `${ws.secret.slice(0, 16)}${ws.secret.at(16) === "A" ? "B" : "A"}${ws.secret.slice(17)}`;
        await assert.rejects(admit(fronts[1], "ck_000000000000_" + "x".repeat(43)), {status: 401, message: /not valid/});
        await assert.rejects(admit(fronts[1], wrongSecret), {status: 401, message: /not valid/});
        await assert.rejects(admit(fronts[1], ws.secret, {keyActivationMs: 60_000}), {status: 401, message: /not active yet/});
        assert.deepEqual([(await totals(ws.id)).held, (await totals(ws.id)).holds], [0, 0], "a refused key holds nothing");

        // Rates that make each term the largest in turn; decision output is free; a model without a price holds nothing.
        const rates = [{input: 3_000_000, cached: 500_000, output: 7_000_000}, {input: 1, cached: 999_999, output: 3}, {input: 123_457, cached: 0, output: 0}];
        for (const [index, rate] of rates.entries()) {
            for (const model of ["svc-1", "svc-1-decision"]) {
                const priced = {model, inputMicrosPerMillion: rate.input, cachedInputMicrosPerMillion: rate.cached, outputMicrosPerMillion: model === "svc-1" ? rate.output : 0};
                await fronts[0].setPrice(priced);
                for (const holdTokens of [1, 4096, 131_072 + index]) {
                    const taken = await admit(fronts[2], ws.secret, {model, holdTokens});
                    assert.equal(taken.hold.micros, holdMicros(model, holdTokens, priced), `${model} at ${JSON.stringify(rate)}, ${holdTokens} tokens`);
                    assert.equal((await totals(ws.id)).held, taken.hold.micros);
                    await fronts[2].settle(taken.hold, {requestId: `exact-${index}-${model}-${holdTokens}`, workspaceId: ws.id, keyId: ws.keyId, model,
                        endpoint: "/v1/completions", tokens: {uncachedInputTokens: 0, cachedInputTokens: 0, outputTokens: 0}, costMicros: 0}, taken.limit);
                }
            }
        }
        await fronts[0].setPrice(price);
        assert.equal((await admit(fronts[1], ws.secret, {model: "svc-unpriced"})).hold.micros, 0);

        const poor = await workspace(fronts[0], "no-credit", 0);
        await assert.rejects(admit(fronts[1], poor.secret), {status: 402, code: "insufficient_quota", message: /no prepaid credit/});
        await fronts[0].setRateLimit({workspaceId: ws.id, model: "svc-1", requestsPerMinute: 1, tokensPerMinute: null});
        const before = (await totals(ws.id)).held;
        const first = await admit(fronts[1], ws.secret);
        await assert.rejects(admit(fronts[2], ws.secret), {status: 429, code: "rate_limit_exceeded"});
        fronts[1].release(first.hold);
        for (let waited = 0; (await totals(ws.id)).held !== before && waited < 2_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal((await totals(ws.id)).held, before, "the refused request's hold and the first one's were let go");
    });

    test("overdraft bound: three fronts racing on one workspace never take its balance below minus one hold; balance = credits − ledger", async () => {
        const hold = holdMicros("svc-1", 1000, price);
        const ws = await workspace(fronts[0], "racing", Math.floor(hold * 30.5));
        let charged = 0, refused = 0, sequence = 0;
        // Each front runs 12 clients that reserve, then charge between half a hold and a whole one, until refused.
        await Promise.all(fronts.flatMap((front, frontIndex) => Array.from({length: 12}, async (_, client) => {
            for (;;) {
                let taken;
                try {
                    taken = await admit(front, ws.secret);
                } catch (error) {
                    assert.equal((error as {status?: number}).status, 402);
                    refused++;
                    return;
                }
                await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
                const cost = Math.ceil(hold * (0.5 + Math.random() / 2));
                const tokens = {uncachedInputTokens: 10, cachedInputTokens: 0, outputTokens: 1};
                assert.equal(taken.hold.micros, hold);
                assert.equal(await front.settle(taken.hold, {requestId: `race-${frontIndex}-${client}-${sequence++}`, workspaceId: ws.id, keyId: ws.keyId,
                    model: "svc-1", endpoint: "/v1/chat/completions", tokens, costMicros: cost}, taken.limit), true);
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
        assert.equal(limit.requestsPerMinute, 30);
        const results = await Promise.allSettled(Array.from({length: 90}, (_, index) => admit(fronts[index % 3], ws.secret, {holdTokens: 1})));
        const admitted = results.filter((result) => result.status === "fulfilled").length;
        // The burst, plus what refills (one every 2 s) while the 90 run.
        assert.ok(admitted >= 30 && admitted <= 31, `${admitted} admitted`);
        const refusal = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
        assert.equal(refusal.reason.status, 429);
        assert.ok(refusal.reason.retryAfter >= 1);
        // A refused request's hold is let go without waiting (release is fire and forget): give it a moment.
        const held = async () => Number(await cluster.psql(`SELECT held_micros FROM workspaces WHERE id = '${ws.id}'`));
        const oneHold = holdMicros("svc-1", 1, price);
        for (let waited = 0; await held() !== admitted * oneHold && waited < 2_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(await held(), admitted * oneHold, "a refused request holds nothing");

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
        fronts[1].release((await admit(fronts[1], ws.secret)).hold);
        assert.equal(JSON.parse((await cli("keys", "revoke", ws.keyId)).stdout).state, "revoked");
        await assert.rejects(admit(fronts[2], ws.secret), {status: 401, message: /revoked/});
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
