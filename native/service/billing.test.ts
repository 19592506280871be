import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {costMicros, holdMicros, Ledger} from "./billing.ts";
import {ServiceStore} from "./store.ts";
import {activateWorkspace, addCredits, createOrganization, createWorkspace, requireWorkspace} from "./accounts.ts";
import {createKey} from "./keys.ts";

const price = {model: "svc-1", inputMicrosPerMillion: 3_000_000, cachedInputMicrosPerMillion: 500_000, outputMicrosPerMillion: 7_000_000};

test("cost: each kind at its rate, exact integers, rounded up once per request (spec 2.3 rule 2)", () => {
    assert.equal(costMicros("svc-1", {uncachedInputTokens: 10, cachedInputTokens: 4, outputTokens: 5}, price), 30 + 2 + 35);
    assert.equal(costMicros("svc-1", {uncachedInputTokens: 1, cachedInputTokens: 1, outputTokens: 0}, {...price, inputMicrosPerMillion: 1, cachedInputMicrosPerMillion: 1}), 1);
    assert.equal(costMicros("svc-1", {uncachedInputTokens: 0, cachedInputTokens: 0, outputTokens: 0}, price), 0);
    // Past 2^53 in the product: 10^8 tokens at 10^9 micro-units per million is 10^11 micro-units, exactly.
    assert.equal(costMicros("svc-1", {uncachedInputTokens: 100_000_000, cachedInputTokens: 0, outputTokens: 0}, {...price, inputMicrosPerMillion: 1_000_000_000}), 100_000_000_000);
    assert.equal(costMicros("svc-1", {uncachedInputTokens: 3, cachedInputTokens: 0, outputTokens: 0}, {...price, inputMicrosPerMillion: 333_333}), 1, "0.999999 rounds up");
});

test("decision output tokens are free (spec 1 rule 4), whatever price is stored", () => {
    const decision = {...price, model: "svc-1-decision"};
    assert.equal(costMicros("svc-1-decision", {uncachedInputTokens: 10, cachedInputTokens: 0, outputTokens: 1000}, decision), 30);
    assert.equal(holdMicros("svc-1-decision", 1000, decision), 3000, "held at the input rate, the largest that applies");
    assert.equal(holdMicros("svc-1", 1000, price), 7000);
});

test("ledger: 402 when not activated or out of credit; holds bound the overdraft; a charge is written once", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "svc-ledger-"));
    const store = ServiceStore.open(dir);
    try {
        const org = createOrganization(store, "o");
        const ws = createWorkspace(store, org.id, "w");
        const {key} = createKey(store, {workspaceId: ws.id});
        const ledger = new Ledger(store);
        const row = () => {
            const current = requireWorkspace(store, ws.id);
            return {id: current.id, activatedAt: current.activatedAt == null ? null : 1, balanceMicros: current.balanceMicros};
        };
        assert.throws(() => ledger.reserve(row(), 10), {status: 402, code: "insufficient_quota", message: /not activated/});
        activateWorkspace(store, ws.id);
        assert.throws(() => ledger.reserve(row(), 10), {status: 402, code: "insufficient_quota", message: /no prepaid credit/});
        addCredits(store, ws.id, 100);

        // 100 left, holds of 60: the first two are admitted (100, then 40 not yet held), the third is refused.
        const first = ledger.reserve(row(), 60);
        const second = ledger.reserve(row(), 60);
        assert.throws(() => ledger.reserve(row(), 60), {status: 402, message: /held by requests in flight/});
        assert.equal(ledger.heldMicros(ws.id), 120);
        const charge = (requestId: string, cost: number) => ({requestId, workspaceId: ws.id, keyId: key.id, model: "svc-1", endpoint: "/v1/chat/completions",
            tokens: {uncachedInputTokens: 1, cachedInputTokens: 0, outputTokens: 1}, costMicros: cost});
        assert.equal(ledger.settle(first, charge("a", 60)), true);
        assert.equal(ledger.settle(second, charge("b", 55)), true);
        assert.equal(row().balanceMicros, -15, "overdrawn by less than one hold");
        assert.equal(ledger.heldMicros(ws.id), 0);
        assert.throws(() => ledger.reserve(row(), 60), {status: 402});

        addCredits(store, ws.id, 1000);
        const again = ledger.reserve(row(), 60);
        assert.equal(ledger.settle(again, charge("a", 60)), false, "request a was charged already");
        assert.equal(row().balanceMicros, 985);
        const dropped = ledger.reserve(row(), 60);
        ledger.release(dropped);
        ledger.release(dropped);
        assert.equal(ledger.heldMicros(ws.id), 0, "released once, however often it is let go");
        const sums = store.db.prepare("SELECT (SELECT SUM(amount_micros) FROM credits) AS credits, (SELECT SUM(cost_micros) FROM usage) AS cost").get() as {credits: number, cost: number};
        assert.equal(row().balanceMicros, sums.credits - sums.cost);
    } finally {
        store.close();
        await rm(dir, {recursive: true, force: true});
    }
});
