import assert from "node:assert/strict";
import {meteredTokens, type AnyUsage} from "../../../protocol/usage.ts";
import type {Queryable} from "../../../native/service/postgres/database.ts";
import {expectedCost} from "./teamServer.ts";

/** An answer a client received whole: the usage it reported, for the model and workspace it was sent to. */
export type ReceivedAnswer = {usage: AnyUsage, model: string, workspaceId: string};

/**
 * The shared database's ledger against what the clients received: every answer is charged once, by its trace id,
 * with its tokens at the test prices; no trace is charged twice; each workspace's balance is its credits less its
 * ledger, and its held credit is what its holds' rows add up to. Returns the ledger's size and how many charged
 * traces no client saw whole (a front killed after charging, before the last bytes left).
 */
export async function assertPostgresLedgerExact(db: Queryable, received: Map<string, ReceivedAnswer>): Promise<{rows: number, unseen: number}> {
    const rows = await db.query<{trace_id: string, uncached: number, cached: number, output: number, cost: number}>(
        "SELECT trace_id, uncached_input_tokens AS uncached, cached_input_tokens AS cached, output_tokens AS output, cost_micros AS cost FROM usage");
    const workspaces = await db.query<{id: string, balance: number, credits: number, cost: number, held: number, holds: number}>(`SELECT w.id,
        w.balance_micros AS balance, w.held_micros AS held, (SELECT SUM(amount_micros) FROM credits c WHERE c.workspace_id = w.id) AS credits,
        (SELECT COALESCE(SUM(cost_micros), 0) FROM usage u WHERE u.workspace_id = w.id) AS cost,
        (SELECT COALESCE(SUM(micros), 0) FROM holds h WHERE h.workspace_id = w.id) AS holds FROM workspaces w`);
    const byTrace = new Map<string, typeof rows>();
    for (const row of rows) byTrace.set(row.trace_id, [...byTrace.get(row.trace_id) ?? [], row]);
    for (const [traceId, answer] of received) {
        const charged = byTrace.get(traceId) ?? [];
        assert.equal(charged.length, 1, `${traceId} charged ${charged.length} times`);
        const tokens = meteredTokens(answer.usage);
        const usage = {uncached: tokens.uncachedInputTokens, cached: tokens.cachedInputTokens, output: tokens.outputTokens};
        assert.deepEqual({uncached: charged[0].uncached, cached: charged[0].cached, output: charged[0].output, cost: charged[0].cost},
            {...usage, cost: expectedCost(answer.model, usage)}, traceId);
    }
    for (const charged of byTrace.values()) assert.equal(charged.length, 1, "no request charged twice");
    for (const workspace of workspaces) {
        assert.equal(workspace.balance, workspace.credits - workspace.cost, `${workspace.id}: balance = credits − ledger`);
        assert.equal(workspace.held, workspace.holds, `${workspace.id}: held credit = the holds' rows`);
    }
    return {rows: rows.length, unseen: [...byTrace.keys()].filter((traceId) => !received.has(traceId)).length};
}
