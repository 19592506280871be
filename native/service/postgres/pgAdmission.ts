import type {Admission} from "../backend.ts";
import {freePrice} from "../pricing.ts";

// The SQL of a request's admission on PostgreSQL (pgMetering.ts runs it): the key with its workspace, price and
// limit, and, in the same statement when the key may call, the hold and the rate buckets. One statement is one
// round trip, and atomic without an explicit transaction.

/** The database's clock in epoch milliseconds: every front reads the same one, whatever its own says. */
export const nowMs = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

/** A key by its lookup ($1) with its workspace, and the price and the workspace's limit for the model ($2). */
export const admissionQuery = `SELECT k.id, k.workspace_id, k.secret_hash, k.issued_at, k.revoked_at, w.activated_at, w.balance_micros,
    p.input_micros_per_million, p.cached_input_micros_per_million, p.output_micros_per_million, r.requests_per_minute, r.tokens_per_minute
    FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id LEFT JOIN prices p ON p.model = $2
    LEFT JOIN rate_limits r ON r.workspace_id = k.workspace_id AND r.model = $2 WHERE k.lookup = $1`;

/**
 * Takes one request from the workspace's buckets for the model, if the CTE `taken` has a row: the requests bucket
 * gives one only when it holds one, the token bucket is refilled and read (a completed request's tokens are taken
 * when it settles, so it only has to be above zero). `requests` and `tokens` are SQL for the limits (NULL: none).
 */
export function takeFromBuckets({workspace, model, requests, tokens, taken}: {workspace: string, model: string, requests: string, tokens: string, taken: string}) {
    const capacity = `(CASE b.kind WHEN 'requests' THEN (${requests})::float8 ELSE (${tokens})::float8 END)`;
    const refilled = `LEAST(${capacity}, b.level + GREATEST(0, excluded.updated_at - b.updated_at) * ${capacity} / 60000)`;
    return `INSERT INTO rate_buckets AS b (workspace_id, model, kind, level, updated_at)
        SELECT ${workspace}, ${model}, v.kind, v.capacity - v.take, ${nowMs}
        FROM (VALUES ('requests', (${requests})::float8, 1::float8), ('tokens', (${tokens})::float8, 0::float8)) AS v(kind, capacity, take)
        WHERE v.capacity IS NOT NULL AND EXISTS (SELECT 1 FROM ${taken})
        ON CONFLICT (workspace_id, model, kind) DO UPDATE SET level = ${refilled} - (CASE b.kind WHEN 'requests' THEN 1 ELSE 0 END),
            updated_at = excluded.updated_at
        WHERE b.kind = 'tokens' OR ${refilled} >= 1 RETURNING b.kind, b.level`;
}

/**
 * Admission whole, in one statement. `a` reads the key ($1 lookup) as `admissionQuery` does, and says whether it may
 * call: its secret's hash equals $4, it is not revoked, and it was issued at or before $5 (the front's now less the
 * activation time; the front checks the key again from the same row and time, in constant time). The hold is what
 * `holdMicros` (billing.ts) gives, in exact integers: $6 tokens at the model's highest rate, output's counted only
 * when $7 is 1, rounded up. `funds` adds it to the workspace's held credit only while balance less held is above
 * zero (re-checked on the latest row once its lock is granted); `hold` writes its row with this front's lease ($3 id,
 * $8 front, $9 lease ms); `buckets` takes a request from the rate buckets, only if the hold was taken.
 */
export const admitStatement = `WITH
    a AS (SELECT q.*, (q.secret_hash = $4 AND q.revoked_at IS NULL AND q.issued_at <= $5) AS may_call,
        div($6::numeric * GREATEST(COALESCE(q.input_micros_per_million, 0), COALESCE(q.cached_input_micros_per_million, 0),
            COALESCE(q.output_micros_per_million, 0) * $7::integer) + 999999, 1000000)::bigint AS hold_micros
        FROM (${admissionQuery}) q),
    funds AS (UPDATE workspaces w SET held_micros = w.held_micros + a.hold_micros FROM a
        WHERE w.id = a.workspace_id AND a.may_call AND w.activated_at IS NOT NULL AND w.balance_micros - w.held_micros > 0 RETURNING w.id, a.hold_micros),
    hold AS (INSERT INTO holds (id, workspace_id, micros, front, expires_at) SELECT $3, funds.id, funds.hold_micros, $8, ${nowMs} + $9 FROM funds RETURNING id),
    buckets AS (${takeFromBuckets({workspace: "(SELECT workspace_id FROM a)", model: "$2",
        requests: "(SELECT requests_per_minute FROM a)", tokens: "(SELECT tokens_per_minute FROM a)", taken: "funds"})})
    SELECT a.*, (SELECT id FROM hold) AS hold,
        (SELECT COALESCE(json_agg(json_build_object('kind', kind, 'level', level)), '[]'::json) FROM buckets) AS buckets FROM a`;

export type AdmissionRow = {
    id: string, workspace_id: string, secret_hash: Uint8Array, issued_at: number, revoked_at: number | null,
    activated_at: number | null, balance_micros: number,
    input_micros_per_million: number | null, cached_input_micros_per_million: number | null, output_micros_per_million: number | null,
    requests_per_minute: number | null, tokens_per_minute: number | null
};

/** The buckets one admission took from, with their levels after it. */
export type BucketLevels = Array<{kind: "requests" | "tokens", level: number}>;

export type AdmitRow = AdmissionRow & {hold_micros: number, hold: string | null, buckets: BucketLevels};

/** An admission row as the store's Admission. */
export function toAdmission(row: AdmissionRow, model: string): Admission {
    return {
        key: {id: row.id, workspaceId: row.workspace_id, secretHash: row.secret_hash, issuedAt: row.issued_at, revokedAt: row.revoked_at},
        workspace: {id: row.workspace_id, activatedAt: row.activated_at, balanceMicros: row.balance_micros},
        price: row.input_micros_per_million == null ? freePrice(model) : {model, inputMicrosPerMillion: row.input_micros_per_million,
            cachedInputMicrosPerMillion: row.cached_input_micros_per_million!, outputMicrosPerMillion: row.output_micros_per_million!},
        limit: {workspaceId: row.workspace_id, model, requestsPerMinute: row.requests_per_minute, tokensPerMinute: row.tokens_per_minute}
    };
}
