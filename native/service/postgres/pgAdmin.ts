import type {ApiKeyInfo, IssuedKey, ModelPrice, NewKey, Organization, RateLimit, UsageQuery, UsageRow, Workspace} from "../../../protocol/admin/contract.ts";
import {checkCredit, requireName, toWorkspace, type WorkspaceRow} from "../accounts.ts";
import type {ServiceAdminOperations} from "../backend.ts";
import {checkNewKey, freshSecret, hashKey, type KeyRow, toInfo} from "../keys.ts";
import {checkPrice, checkRateLimit, freePrice, type LimitRow, type PriceRow, toLimit, toPrice} from "../pricing.ts";
import {isoTime, newId, ServiceStoreError} from "../store.ts";
import {toUsageRow, usageColumnsOf, type UsageSumRow} from "../usageReports.ts";
import type {PgDatabase, Queryable} from "./database.ts";

// The admin operations on PostgreSQL: the same checks (accounts.ts, keys.ts, pricing.ts, usageReports.ts) and the
// same answers as on SQLite, in PostgreSQL's SQL. Uniqueness races between fronts are settled by the database's
// constraints (ON CONFLICT), not by reading first.

const workspaceSelect = `SELECT w.*, (SELECT COALESCE(SUM(amount_micros), 0) FROM credits c WHERE c.workspace_id = w.id) AS credited FROM workspaces w`;
const uniqueViolation = "23505";

export function pgAdminOperations(db: PgDatabase): ServiceAdminOperations {
    const getOrganization = async (ref: string): Promise<Organization> => {
        const [row] = await db.query<{id: string, name: string, created_at: number}>("SELECT * FROM organizations WHERE id = $1 OR name = $1 ORDER BY id = $1 DESC LIMIT 1", [ref]);
        if (row == null) throw new ServiceStoreError("not_found", `no organization ${JSON.stringify(ref)}`);
        return {id: row.id, name: row.name, createdAt: isoTime(row.created_at)};
    };
    const requireWorkspace = (ref: string) => findWorkspace(db, ref);
    const getKey = async (id: string, activationMs = 0, on: Queryable = db): Promise<ApiKeyInfo> => {
        const [row] = await on.query<KeyRow>("SELECT * FROM api_keys WHERE id = $1", [id]);
        if (row == null) throw new ServiceStoreError("not_found", `no key ${JSON.stringify(id)}`);
        return toInfo(row, activationMs);
    };
    const getPrice = async (model: string): Promise<ModelPrice> => {
        const [row] = await db.query<PriceRow>("SELECT * FROM prices WHERE model = $1", [model]);
        return row == null ? freePrice(model) : toPrice(row);
    };

    return {
        async createOrganization(name) {
            const trimmed = requireName(name, "organization");
            const [row] = await db.query<{id: string}>("INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING RETURNING id",
                [newId("org"), trimmed, Date.now()]);
            if (row == null) throw new ServiceStoreError("conflict", `an organization named ${JSON.stringify(trimmed)} exists already`);
            return getOrganization(row.id);
        },
        async listOrganizations() {
            return (await db.query<{id: string, name: string, created_at: number}>("SELECT * FROM organizations ORDER BY created_at, id"))
                .map((row) => ({id: row.id, name: row.name, createdAt: isoTime(row.created_at)}));
        },
        async createWorkspace(organizationRef, name) {
            const trimmed = requireName(name, "workspace");
            const organization = await getOrganization(organizationRef);
            const [row] = await db.query<{id: string}>(`INSERT INTO workspaces (id, organization_id, name, created_at) VALUES ($1, $2, $3, $4)
                ON CONFLICT (organization_id, name) DO NOTHING RETURNING id`, [newId("ws"), organization.id, trimmed, Date.now()]);
            if (row == null) throw new ServiceStoreError("conflict", `organization ${organization.name} has a workspace named ${JSON.stringify(trimmed)} already`);
            return requireWorkspace(row.id);
        },
        async listWorkspaces() {
            return (await db.query<WorkspaceRow>(`${workspaceSelect} ORDER BY w.created_at, w.id`)).map(toWorkspace);
        },
        requireWorkspace,
        async activateWorkspace(ref) {
            const workspace = await requireWorkspace(ref);
            await db.query("UPDATE workspaces SET activated_at = COALESCE(activated_at, $1) WHERE id = $2", [Date.now(), workspace.id]);
            return requireWorkspace(workspace.id);
        },
        async addCredits(ref, amountMicros, {note} = {}) {
            checkCredit(amountMicros);
            const workspace = await requireWorkspace(ref);
            // The credit's row and the balance change in one transaction: the balance stays credits less charges.
            await db.transaction(async (client) => {
                await client.query("INSERT INTO credits (workspace_id, amount_micros, note, created_at) VALUES ($1, $2, $3, $4)", [workspace.id, amountMicros, note ?? null, Date.now()]);
                await client.query("UPDATE workspaces SET balance_micros = balance_micros + $1 WHERE id = $2", [amountMicros, workspace.id]);
            });
            return requireWorkspace(workspace.id);
        },
        async setPrice(price) {
            checkPrice(price);
            await db.query(`INSERT INTO prices (model, input_micros_per_million, cached_input_micros_per_million, output_micros_per_million) VALUES ($1, $2, $3, $4)
                ON CONFLICT (model) DO UPDATE SET input_micros_per_million = excluded.input_micros_per_million,
                cached_input_micros_per_million = excluded.cached_input_micros_per_million, output_micros_per_million = excluded.output_micros_per_million`,
            [price.model, price.inputMicrosPerMillion, price.cachedInputMicrosPerMillion, price.outputMicrosPerMillion]);
            return getPrice(price.model);
        },
        getPrice,
        async listPrices() {
            return (await db.query<PriceRow>("SELECT * FROM prices ORDER BY model")).map(toPrice);
        },
        async setRateLimit(limit) {
            checkRateLimit(limit);
            const workspace = await requireWorkspace(limit.workspaceId);
            if (limit.requestsPerMinute == null && limit.tokensPerMinute == null)
                await db.query("DELETE FROM rate_limits WHERE workspace_id = $1 AND model = $2", [workspace.id, limit.model]);
            else await db.query(`INSERT INTO rate_limits (workspace_id, model, requests_per_minute, tokens_per_minute) VALUES ($1, $2, $3, $4)
                ON CONFLICT (workspace_id, model) DO UPDATE SET requests_per_minute = excluded.requests_per_minute, tokens_per_minute = excluded.tokens_per_minute`,
            [workspace.id, limit.model, limit.requestsPerMinute, limit.tokensPerMinute]);
            const [row] = await db.query<LimitRow>("SELECT * FROM rate_limits WHERE workspace_id = $1 AND model = $2", [workspace.id, limit.model]);
            return row == null ? {workspaceId: workspace.id, model: limit.model, requestsPerMinute: null, tokensPerMinute: null} satisfies RateLimit : toLimit(row);
        },
        async listRateLimits(workspaceId) {
            return (await db.query<LimitRow>("SELECT * FROM rate_limits WHERE $1::text IS NULL OR workspace_id = $1 ORDER BY workspace_id, model", [workspaceId ?? null])).map(toLimit);
        },
        async createKey(input: NewKey, activationMs = 0): Promise<IssuedKey> {
            const {owner, visibility, name} = checkNewKey(input);
            await requireWorkspace(input.workspaceId);
            const id = newId("key");
            const secret = await withFreshLookup(async (lookup, secret) => {
                const now = Date.now();
                await db.query(`INSERT INTO api_keys (id, workspace_id, name, owner_user, visibility, lookup, secret_hash, created_at, issued_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [id, input.workspaceId, name, owner.type === "user" ? owner.userId : null, visibility, lookup, hashKey(secret), now, now]);
            });
            return {key: await getKey(id, activationMs), secret};
        },
        async rotateKey(id, activationMs = 0) {
            const key = await getKey(id, activationMs);
            if (key.state === "revoked") throw new ServiceStoreError("conflict", `key ${id} is revoked; create a new one`);
            const secret = await withFreshLookup(async (lookup, secret) => {
                await db.query("UPDATE api_keys SET lookup = $1, secret_hash = $2, issued_at = $3 WHERE id = $4", [lookup, hashKey(secret), Date.now(), id]);
            });
            return {key: await getKey(id, activationMs), secret};
        },
        async revokeKey(id, activationMs = 0) {
            await getKey(id, activationMs);
            await db.query("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2", [Date.now(), id]);
            return getKey(id, activationMs);
        },
        async listKeys({workspaceId, userId} = {}, activationMs = 0) {
            return (await db.query<KeyRow>(`SELECT * FROM api_keys WHERE ($1::text IS NULL OR workspace_id = $1)
                AND ($2::text IS NULL OR visibility = 'shared' OR owner_user = $2) ORDER BY created_at, id`, [workspaceId ?? null, userId ?? null]))
                .map((row) => toInfo(row, activationMs));
        },
        async usageReport(query: UsageQuery): Promise<UsageRow[]> {
            const columns = usageColumnsOf(query).join(", ");
            return (await db.query<UsageSumRow>(`SELECT ${columns}, COUNT(*) AS requests, SUM(uncached_input_tokens) AS uncached,
                SUM(cached_input_tokens) AS cached, SUM(output_tokens) AS output, SUM(cost_micros) AS cost FROM usage
                WHERE ($1::text IS NULL OR workspace_id = $1) AND ($2::text IS NULL OR key_id = $2) AND ($3::text IS NULL OR day >= $3)
                AND ($4::text IS NULL OR day <= $4) GROUP BY ${columns} ORDER BY ${columns}`,
            [query.workspaceId ?? null, query.keyId ?? null, query.since ?? null, query.until ?? null])).map(toUsageRow);
        }
    };
}

/** A workspace by id, by `organization/name`, or by a name no other workspace has (as accounts.ts's). */
async function findWorkspace(db: PgDatabase, ref: string): Promise<Workspace> {
    const [row] = await db.query<WorkspaceRow>(`${workspaceSelect} WHERE w.id = $1`, [ref]);
    if (row != null) return toWorkspace(row);
    const slash = ref.indexOf("/");
    const matches = slash > 0
        ? await db.query<WorkspaceRow>(`${workspaceSelect} JOIN organizations o ON o.id = w.organization_id WHERE o.name = $1 AND w.name = $2`, [ref.slice(0, slash), ref.slice(slash + 1)])
        : await db.query<WorkspaceRow>(`${workspaceSelect} WHERE w.name = $1`, [ref]);
    if (matches.length === 1) return toWorkspace(matches[0]);
    throw new ServiceStoreError(matches.length === 0 ? "not_found" : "conflict", matches.length === 0
        ? `no workspace ${JSON.stringify(ref)}`
        : `${matches.length} workspaces are named ${JSON.stringify(ref)}; name it as <organization>/<workspace> or by id`);
}

/** Writes a new secret with `write`; a lookup another key took meanwhile (48 random bits) is drawn again. */
async function withFreshLookup(write: (lookup: string, secret: string) => Promise<void>): Promise<string> {
    for (let attempt = 0; ; attempt++) {
        const {lookup, secret} = freshSecret(() => false);
        try {
            await write(lookup, secret);
            return secret;
        } catch (error) {
            if ((error as {code?: string}).code !== uniqueViolation || attempt >= 3) throw error;
        }
    }
}
