// The service database's schema, as an append-only list: entry i takes `PRAGMA user_version` from i to i + 1
// (store.ts applies them). Never edit a shipped entry; add one.
//
// Money columns are integer micro-units (protocol/admin/money.ts); times are epoch milliseconds.

export const migrations: string[] = [
    // 1: organizations and workspaces (spec §1 rule 5), keys stored as hashes (§5), credits, prices (§2.3), rate
    // limits (§8) and the usage ledger (§7 "Charging").
    `
    CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id),
        name TEXT NOT NULL,
        activated_at INTEGER,
        -- Kept equal to SUM(credits) - SUM(usage.cost_micros) by every write (billing.ts), read on each request.
        balance_micros INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        UNIQUE (organization_id, name)
    );
    CREATE TABLE credits (
        id INTEGER PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        amount_micros INTEGER NOT NULL,
        note TEXT,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        name TEXT NOT NULL,
        owner_user TEXT,
        visibility TEXT NOT NULL CHECK (visibility IN ('private', 'shared')),
        -- The public part of the key, used to find its row; the secret is only ever stored as secret_hash.
        lookup TEXT NOT NULL UNIQUE,
        secret_hash BLOB NOT NULL,
        created_at INTEGER NOT NULL,
        issued_at INTEGER NOT NULL,
        revoked_at INTEGER
    );
    CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id);
    CREATE TABLE prices (
        model TEXT PRIMARY KEY,
        input_micros_per_million INTEGER NOT NULL,
        cached_input_micros_per_million INTEGER NOT NULL,
        output_micros_per_million INTEGER NOT NULL
    );
    CREATE TABLE rate_limits (
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        model TEXT NOT NULL,
        requests_per_minute INTEGER,
        tokens_per_minute INTEGER,
        PRIMARY KEY (workspace_id, model)
    );
    -- One row per charged request, written in the same transaction as the balance change: request_id is UNIQUE,
    -- so no request is charged twice.
    CREATE TABLE usage (
        id INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL UNIQUE,
        trace_id TEXT,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        key_id TEXT NOT NULL REFERENCES api_keys(id),
        model TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        day TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        uncached_input_tokens INTEGER NOT NULL,
        cached_input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cost_micros INTEGER NOT NULL
    );
    CREATE INDEX usage_by_workspace_day ON usage (workspace_id, day);
    `
];
