import {randomUUID} from "node:crypto";
import type {RateLimit} from "../../../protocol/admin/contract.ts";
import {type AdmissionRequest, type AdmittedRequest, keyRefusal} from "../admission.ts";
import type {Admission, ServiceMetering, WorkspaceFunds} from "../backend.ts";
import {chargesOutput, type Charge, type Hold, holdMicros, quotaRefusal} from "../billing.ts";
import {hashKey} from "../keys.ts";
import {rateRefusal, waitMs} from "../rateLimits.ts";
import type {PgDatabase} from "./database.ts";
import {admissionQuery, type AdmissionRow, admitStatement, type AdmitRow, type BucketLevels, nowMs, takeFromBuckets, toAdmission} from "./pgAdmission.ts";

/**
 * Metering for fronts that share one PostgreSQL database. Each step is one statement, so it is atomic without an
 * explicit transaction, and row locks order the fronts' steps on a workspace:
 *
 * - admit: the key with its workspace, price and limit, and when the key may call, the reserve step below, in one
 *   statement (pgAdmission.ts): a request's way in is one round trip;
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
        const [row] = await this.db.query<AdmissionRow>(admissionQuery, [lookup, model]);
        return row == null ? undefined : toAdmission(row, model);
    }

    public async admit(request: AdmissionRequest): Promise<AdmittedRequest> {
        const {token, lookup, model, holdTokens, keyActivationMs, now} = request;
        const id = randomUUID();
        const [row] = await this.db.query<AdmitRow>(admitStatement,
            [lookup, model, id, hashKey(token), now - keyActivationMs, holdTokens, chargesOutput(model) ? 1 : 0, this.front, this.leaseMs]);
        const admission = row == null ? undefined : toAdmission(row, model);
        const taken = row?.hold != null;
        if (taken) this.live.add(id);
        const hold: Hold = {workspaceId: row?.workspace_id ?? "", micros: row?.hold_micros ?? 0, released: !taken, id};
        // The same key, read in the same statement, judged again here in constant time at the same time: a key the
        // statement let hold credit is one this accepts, so the release below is only ever a safeguard.
        const refusal = keyRefusal(token, admission?.key, keyActivationMs, now);
        if (refusal != null || admission == null) {
            this.release(hold);
            throw refusal;
        }
        const expected = holdMicros(model, holdTokens, admission.price);
        if (row!.hold_micros !== expected) {
            this.release(hold);
            throw new Error(`the admission statement held ${row!.hold_micros} micro-units where holdMicros gives ${expected}`);
        }
        if (!taken) throw await this.fundsRefusal(admission.workspace);
        await this.takeRequest(hold, row!.buckets, admission.limit);
        return {...admission, hold};
    }

    public async reserve(workspace: WorkspaceFunds, micros: number, limit?: RateLimit): Promise<Hold> {
        const id = randomUUID();
        // One statement: the hold, only while balance less held is above zero; then, only if it was taken, the buckets.
        const [row] = await this.db.query<{hold: string | null, buckets: BucketLevels}>(`WITH
            funds AS (UPDATE workspaces SET held_micros = held_micros + $2
                WHERE id = $1 AND activated_at IS NOT NULL AND balance_micros - held_micros > 0 RETURNING id),
            hold AS (INSERT INTO holds (id, workspace_id, micros, front, expires_at) SELECT $3, funds.id, $2, $4, ${nowMs} + $5 FROM funds RETURNING id),
            buckets AS (${takeFromBuckets({workspace: "$1", model: "$6", requests: "$7", tokens: "$8", taken: "funds"})})
            SELECT (SELECT id FROM hold) AS hold, (SELECT COALESCE(json_agg(json_build_object('kind', kind, 'level', level)), '[]'::json) FROM buckets) AS buckets`,
        [workspace.id, micros, id, this.front, this.leaseMs, limit?.model ?? "", limit?.requestsPerMinute ?? null, limit?.tokensPerMinute ?? null]);
        if (row?.hold == null) throw await this.fundsRefusal(workspace);
        this.live.add(id);
        const hold: Hold = {workspaceId: workspace.id, micros, released: false, id};
        if (limit != null) await this.takeRequest(hold, row.buckets, limit);
        return hold;
    }

    /** The 402 of a hold refused: the workspace's row read again only to say why (not activated, or no credit left beside the holds). */
    private async fundsRefusal(workspace: WorkspaceFunds) {
        const [funds] = await this.db.query<{activated_at: number | null, balance_micros: number, held_micros: number}>(
            "SELECT activated_at, balance_micros, held_micros FROM workspaces WHERE id = $1", [workspace.id]);
        return quotaRefusal({id: workspace.id, activatedAt: funds?.activated_at ?? null, balanceMicros: funds?.balance_micros ?? 0}, funds?.held_micros ?? 0)
            ?? quotaRefusal({...workspace, balanceMicros: 0}, 0)!;
    }

    /** After a hold was taken: the 429 (its hold let go) when a bucket of `limit` had nothing to give. */
    private async takeRequest(hold: Hold, buckets: BucketLevels, limit: RateLimit) {
        const tookRequest = buckets.some((bucket) => bucket.kind === "requests");
        const tokens = buckets.find((bucket) => bucket.kind === "tokens");
        if (limit.requestsPerMinute != null && !tookRequest) {
            this.release(hold);
            const [bucket] = await this.db.query<{level: number}>(`SELECT LEAST($3::float8, level + GREATEST(0, ${nowMs} - updated_at) * $3::float8 / 60000) AS level
                FROM rate_buckets WHERE workspace_id = $1 AND model = $2 AND kind = 'requests'`, [limit.workspaceId, limit.model, limit.requestsPerMinute]);
            throw rateRefusal(limit, "requests", waitMs({level: bucket?.level ?? 0, capacity: limit.requestsPerMinute}, 1));
        }
        if (limit.tokensPerMinute != null && tokens != null && tokens.level <= 0) {
            this.release(hold);
            // Refused for tokens: the request taken above goes back.
            if (tookRequest) await this.db.query("UPDATE rate_buckets SET level = level + 1 WHERE workspace_id = $1 AND model = $2 AND kind = 'requests'", [limit.workspaceId, limit.model]);
            throw rateRefusal(limit, "tokens", waitMs({level: tokens.level, capacity: limit.tokensPerMinute}, Number.EPSILON));
        }
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
