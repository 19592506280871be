import {randomUUID} from "node:crypto";
import type {RateLimit} from "../../../protocol/admin/contract.ts";
import type {Admission, ServiceMetering, WorkspaceFunds} from "../backend.ts";
import {type Charge, type Hold, quotaRefusal} from "../billing.ts";
import {freePrice} from "../pricing.ts";
import {rateRefusal, waitMs} from "../rateLimits.ts";
import type {PgDatabase} from "./database.ts";

/** The database's clock in epoch milliseconds: every front reads the same one, whatever its own says. */
const nowMs = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

/**
 * Metering for fronts that share one PostgreSQL database. Each step is one statement, so it is atomic without an
 * explicit transaction, and row locks order the fronts' steps on a workspace:
 *
 * - reserve: one conditional UPDATE adds the hold to `workspaces.held_micros` only while balance less held is
 *   above zero (re-checked on the latest row once its lock is granted), writes the hold's row, and in the same
 *   statement refills the workspace's rate-limit buckets for the model and takes a request, on the database's clock;
 * - settle: one statement deletes the hold's row, inserts the ledger row (`request_id` unique: once or not at all),
 *   moves balance and held together, so the balance is always credits less the ledger, and takes the request's
 *   tokens from the token bucket.
 *
 * Overdraft bound: admission needs balance − held > 0 across all fronts, and a request costs at most its hold, so a
 * balance never falls below minus one hold, whatever the number of fronts (billing.ts says the same of one
 * process). A hold's row carries a lease this front renews while the request runs; a killed front's holds expire
 * and any front's sweep gives their credit back.
 */
export class PgMetering implements ServiceMetering {
    private readonly db: PgDatabase;
    private readonly front: string;
    private readonly leaseMs: number;
    /** Holds of this front's requests in flight: the leases it renews. */
    private readonly live = new Set<string>();
    private readonly timer: NodeJS.Timeout;

    public constructor(db: PgDatabase, {front, leaseMs = 60_000}: {front: string, leaseMs?: number}) {
        this.db = db;
        this.front = `${front}#${randomUUID().slice(0, 8)}`;
        this.leaseMs = leaseMs;
        this.timer = setInterval(() => void this.maintain().catch(() => {}), Math.max(250, leaseMs / 4));
        this.timer.unref();
    }

    public async hasWorkspaces() {
        return (await this.db.query("SELECT 1 FROM workspaces LIMIT 1")).length > 0;
    }

    public async admission(lookup: string, model: string): Promise<Admission | undefined> {
        const [row] = await this.db.query<AdmissionRow>(`SELECT k.id, k.workspace_id, k.secret_hash, k.issued_at, k.revoked_at, w.activated_at, w.balance_micros,
            p.input_micros_per_million, p.cached_input_micros_per_million, p.output_micros_per_million, r.requests_per_minute, r.tokens_per_minute
            FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id LEFT JOIN prices p ON p.model = $2
            LEFT JOIN rate_limits r ON r.workspace_id = k.workspace_id AND r.model = $2 WHERE k.lookup = $1`, [lookup, model]);
        if (row == null) return undefined;
        return {
            key: {id: row.id, workspaceId: row.workspace_id, secretHash: row.secret_hash, issuedAt: row.issued_at, revokedAt: row.revoked_at},
            workspace: {id: row.workspace_id, activatedAt: row.activated_at, balanceMicros: row.balance_micros},
            price: row.input_micros_per_million == null ? freePrice(model) : {model, inputMicrosPerMillion: row.input_micros_per_million,
                cachedInputMicrosPerMillion: row.cached_input_micros_per_million!, outputMicrosPerMillion: row.output_micros_per_million!},
            limit: {workspaceId: row.workspace_id, model, requestsPerMinute: row.requests_per_minute, tokensPerMinute: row.tokens_per_minute}
        };
    }

    public async reserve(workspace: WorkspaceFunds, micros: number, limit?: RateLimit): Promise<Hold> {
        const id = randomUUID();
        const requestsPerMinute = limit?.requestsPerMinute ?? null, tokensPerMinute = limit?.tokensPerMinute ?? null;
        // One statement: the hold, only while balance less held is above zero; then, only if it was taken, the
        // buckets: the requests bucket gives one request when it holds one, the token bucket is refilled and read (a
        // completed request's tokens are taken when it settles, so it only has to be above zero).
        const capacity = "(CASE b.kind WHEN 'requests' THEN $7::float8 ELSE $8::float8 END)";
        const refilled = `LEAST(${capacity}, b.level + GREATEST(0, excluded.updated_at - b.updated_at) * ${capacity} / 60000)`;
        const [row] = await this.db.query<{hold: string | null, buckets: Array<{kind: "requests" | "tokens", level: number}>}>(`WITH
            funds AS (UPDATE workspaces SET held_micros = held_micros + $2
                WHERE id = $1 AND activated_at IS NOT NULL AND balance_micros - held_micros > 0 RETURNING id),
            hold AS (INSERT INTO holds (id, workspace_id, micros, front, expires_at) SELECT $3, funds.id, $2, $4, ${nowMs} + $5 FROM funds RETURNING id),
            buckets AS (INSERT INTO rate_buckets AS b (workspace_id, model, kind, level, updated_at)
                SELECT $1, $6, v.kind, v.capacity - v.take, ${nowMs}
                FROM (VALUES ('requests', $7::float8, 1::float8), ('tokens', $8::float8, 0::float8)) AS v(kind, capacity, take)
                WHERE v.capacity IS NOT NULL AND EXISTS (SELECT 1 FROM funds)
                ON CONFLICT (workspace_id, model, kind) DO UPDATE SET level = ${refilled} - (CASE b.kind WHEN 'requests' THEN 1 ELSE 0 END),
                    updated_at = excluded.updated_at
                WHERE b.kind = 'tokens' OR ${refilled} >= 1 RETURNING b.kind, b.level)
            SELECT (SELECT id FROM hold) AS hold, (SELECT COALESCE(json_agg(json_build_object('kind', kind, 'level', level)), '[]'::json) FROM buckets) AS buckets`,
        [workspace.id, micros, id, this.front, this.leaseMs, limit?.model ?? "", requestsPerMinute, tokensPerMinute]);
        if (row?.hold == null) {
            // Refused: read the row again only to say why (not activated, or no credit left beside the holds).
            const [funds] = await this.db.query<{activated_at: number | null, balance_micros: number, held_micros: number}>(
                "SELECT activated_at, balance_micros, held_micros FROM workspaces WHERE id = $1", [workspace.id]);
            throw quotaRefusal({id: workspace.id, activatedAt: funds?.activated_at ?? null, balanceMicros: funds?.balance_micros ?? 0}, funds?.held_micros ?? 0)
                ?? quotaRefusal({...workspace, balanceMicros: 0}, 0)!;
        }
        this.live.add(id);
        const hold: Hold = {workspaceId: workspace.id, micros, released: false, id};
        if (limit == null) return hold;
        const tookRequest = row.buckets.some((bucket) => bucket.kind === "requests");
        const tokens = row.buckets.find((bucket) => bucket.kind === "tokens");
        if (requestsPerMinute != null && !tookRequest) {
            this.release(hold);
            const [bucket] = await this.db.query<{level: number}>(`SELECT LEAST($3::float8, level + GREATEST(0, ${nowMs} - updated_at) * $3::float8 / 60000) AS level
                FROM rate_buckets WHERE workspace_id = $1 AND model = $2 AND kind = 'requests'`, [limit.workspaceId, limit.model, requestsPerMinute]);
            throw rateRefusal(limit, "requests", waitMs({level: bucket?.level ?? 0, capacity: requestsPerMinute}, 1));
        }
        if (tokensPerMinute != null && tokens != null && tokens.level <= 0) {
            this.release(hold);
            // Refused for tokens: the request taken above goes back.
            if (tookRequest) await this.db.query("UPDATE rate_buckets SET level = level + 1 WHERE workspace_id = $1 AND model = $2 AND kind = 'requests'", [limit.workspaceId, limit.model]);
            throw rateRefusal(limit, "tokens", waitMs({level: tokens.level, capacity: tokensPerMinute}, Number.EPSILON));
        }
        return hold;
    }

    public release(hold: Hold) {
        if (hold.released || hold.id == null) return;
        hold.released = true;
        this.live.delete(hold.id);
        // Not awaited: the request is over either way. A release the database missed (it was down) expires.
        void this.db.query(`WITH h AS (DELETE FROM holds WHERE id = $1 RETURNING workspace_id, micros)
            UPDATE workspaces w SET held_micros = w.held_micros - h.micros FROM h WHERE w.id = h.workspace_id`, [hold.id]).catch(() => {});
    }

    public async settle(hold: Hold, charge: Charge, limit: RateLimit): Promise<boolean> {
        const {tokens} = charge;
        const now = Date.now();
        this.live.delete(hold.id ?? "");
        hold.released = true;
        // One statement: the hold's row goes, the ledger row comes (once per request id), balance and held move
        // together, and the request's tokens leave the token bucket.
        const [row] = await this.db.query<{charged: number}>(`WITH h AS (DELETE FROM holds WHERE id = $1 RETURNING micros),
            u AS (INSERT INTO usage (request_id, trace_id, workspace_id, key_id, model, endpoint, day, created_at,
                uncached_input_tokens, cached_input_tokens, output_tokens, cost_micros) VALUES ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                ON CONFLICT (request_id) DO NOTHING RETURNING cost_micros),
            t AS (UPDATE rate_buckets SET level = LEAST($14::float8, level + GREATEST(0, ${nowMs} - updated_at) * $14::float8 / 60000) - $15::float8, updated_at = ${nowMs}
                WHERE workspace_id = $4 AND model = $6 AND kind = 'tokens' AND $14::float8 IS NOT NULL AND $15::float8 > 0 AND EXISTS (SELECT 1 FROM u))
            UPDATE workspaces SET balance_micros = balance_micros - COALESCE((SELECT cost_micros FROM u), 0),
                held_micros = held_micros - COALESCE((SELECT micros FROM h), 0)
            WHERE id = $4 RETURNING (SELECT COUNT(*) FROM u) AS charged`,
        [hold.id ?? "", charge.requestId, charge.traceId ?? null, charge.workspaceId, charge.keyId, charge.model, charge.endpoint,
            new Date(now).toISOString().slice(0, 10), now, tokens.uncachedInputTokens, tokens.cachedInputTokens, tokens.outputTokens, charge.costMicros,
            limit.tokensPerMinute, tokens.uncachedInputTokens + tokens.cachedInputTokens + tokens.outputTokens]);
        return row?.charged === 1;
    }

    /** Stops renewing leases; the holds of requests still in flight then expire. */
    public stop() {
        clearInterval(this.timer);
    }

    /** Renews this front's leases, and gives back the credit of holds whose lease ran out (a killed front's). */
    private async maintain() {
        if (this.live.size > 0)
            await this.db.query(`UPDATE holds SET expires_at = ${nowMs} + $2 WHERE id = ANY($1::text[])`, [[...this.live], this.leaseMs]);
        await this.db.query(`WITH gone AS (DELETE FROM holds WHERE expires_at < ${nowMs} RETURNING workspace_id, micros),
            sums AS (SELECT workspace_id, SUM(micros) AS micros FROM gone GROUP BY workspace_id)
            UPDATE workspaces w SET held_micros = w.held_micros - sums.micros FROM sums WHERE w.id = sums.workspace_id`);
    }
}

type AdmissionRow = {
    id: string, workspace_id: string, secret_hash: Uint8Array, issued_at: number, revoked_at: number | null,
    activated_at: number | null, balance_micros: number,
    input_micros_per_million: number | null, cached_input_micros_per_million: number | null, output_micros_per_million: number | null,
    requests_per_minute: number | null, tokens_per_minute: number | null
};
