import {parseArgs} from "node:util";
import type {KeyOwner, UsageGroup} from "../../protocol/admin/contract.ts";
import {formatMoney, parseMoney} from "../../protocol/admin/money.ts";
import {usageColumns, usageCsv} from "../../protocol/admin/usageCsv.ts";
import type {ServiceBackend} from "../service/backend.ts";
import {openServiceBackend} from "../service/openBackend.ts";
import {checkGroups} from "../service/usageReports.ts";
import {serviceDataDir} from "../../base/node/userDataDir.ts";
import {databaseArgs, UsageError} from "./serveArgs.ts";
import {databaseUrlEnvVar} from "./engineKeyEnv.ts";
import {formatTable} from "./table.ts";

export const adminUsage = `usage: svc-studio admin <command> [--data-dir <dir> | --database <postgres-url>] [--json]
The service database of \`svc-studio serve\` (default folder: $SVC_STUDIO_DATA_DIR, else the user data folder; on PostgreSQL:
--database or $${databaseUrlEnvVar}). Once it holds a workspace, a server on it answers workspace keys only.
<workspace> is an id, <organization>/<name>, or a unique name.
  migrate                                     brings the database's schema up to date (serve and every command do too)
  org create <name> | org list
  workspace create <organization> <name> | workspace list
  workspace activate <workspace>              the local stand-in for "a payment method is added" (spec §3)
  credits add <workspace> <amount> [--note <text>]        prepaid credit in currency units, e.g. 25 or 0.50
  prices set <model> --input <p> --cached-input <p> --output <p>   per million tokens (decision output is free)
  prices list
  limits set <workspace> <model> [--rpm <n|none>] [--tpm <n|none>]  requests and tokens per minute
  limits list [<workspace>]
  keys create <workspace> [--name <n>] [--user <id> [--shared]]    owned by the workspace unless --user; the secret is shown once
  keys list [<workspace>] [--user <id>] | keys rotate <key-id> | keys revoke <key-id>
  usage [<workspace>] [--by key,model,day] [--key <id>] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--format table|csv|json]`;

type Values = ReturnType<typeof parse>["values"];

function parse(argv: string[]) {
    const text = {type: "string"} as const;
    return parseArgs({
        args: argv,
        strict: true,
        allowPositionals: true,
        options: {
            "data-dir": text, "database": text, "json": {type: "boolean"}, "help": {type: "boolean", short: "h"}, "note": text,
            "input": text, "cached-input": text, "output": text, "rpm": text, "tpm": text,
            "name": text, "user": text, "shared": {type: "boolean"},
            "by": text, "key": text, "since": text, "until": text, "format": text
        }
    });
}

/** `svc-studio admin ...`: every command opens the database, does one thing, prints it, and closes. */
export async function runAdmin(argv: string[]): Promise<void> {
    const {values, positionals} = parse(argv);
    if (values.help || positionals.length === 0) return console.log(adminUsage);
    const store = await openServiceBackend({dataDir: values["data-dir"] ?? serviceDataDir(), ...databaseArgs(values.database, undefined), front: "admin"});
    try {
        console.log(await run(store, positionals, values));
    } finally {
        await store.close();
    }
}

async function run(store: ServiceBackend, [noun, verb, ...args]: string[], values: Values): Promise<string> {
    const json = (value: unknown) => JSON.stringify(value, null, 2);
    const want = (count: number) => {
        if (args.length !== count) throw new UsageError(`admin ${noun} ${verb} takes ${count} argument${count === 1 ? "" : "s"}\n${adminUsage}`);
    };
    const show = <T>(value: T, text: (value: T) => string) => values.json ? json(value) : text(value);
    if (noun === "usage") return usage(store, [verb, ...args].filter((arg) => arg != null), values);
    switch (`${noun} ${verb ?? ""}`.trim()) {
    case "migrate": {
        const {from, to} = await store.migrate();
        return show({location: store.location, from, to}, () => `${store.location}: schema version ${to}${from === to ? " (up to date)" : ` (from ${from})`}`);
    }
    case "org create": want(1); return show(await store.createOrganization(args[0]), (org) => `organization ${org.id} ${org.name}`);
    case "org list": return show(await store.listOrganizations(), (orgs) => formatTable(["id", "name", "created"], orgs.map((org) => [org.id, org.name, org.createdAt])));
    case "workspace create": want(2); return show(await store.createWorkspace(args[0], args[1]), (ws) => `workspace ${ws.id} ${ws.name}: not activated, no credit; next: ` +
        `svc-studio admin workspace activate ${ws.id} && svc-studio admin credits add ${ws.id} <amount>`);
    case "workspace list": return show(await store.listWorkspaces(), (list) => formatTable(["id", "organization", "name", "activated", "balance", "credited"],
        list.map((ws) => [ws.id, ws.organizationId, ws.name, ws.activatedAt ?? "no", formatMoney(ws.balanceMicros), formatMoney(ws.creditedMicros)])));
    case "workspace activate": want(1); return show(await store.activateWorkspace(args[0]), (ws) => `workspace ${ws.id} activated at ${ws.activatedAt}`);
    case "credits add": want(2); return show(await store.addCredits(args[0], parseMoney(args[1]), {note: values.note}),
        (ws) => `workspace ${ws.id}: balance ${formatMoney(ws.balanceMicros)}`);
    case "prices set": want(1); return show(await store.setPrice({
        ...await store.getPrice(args[0]),
        ...(values.input != null ? {inputMicrosPerMillion: parseMoney(values.input)} : {}),
        ...(values["cached-input"] != null ? {cachedInputMicrosPerMillion: parseMoney(values["cached-input"])} : {}),
        ...(values.output != null ? {outputMicrosPerMillion: parseMoney(values.output)} : {})
    }), (price) => formatPrices([price]));
    case "prices list": return show(await store.listPrices(), formatPrices);
    case "limits set": want(2); return show(await store.setRateLimit({
        workspaceId: (await store.requireWorkspace(args[0])).id, model: args[1], requestsPerMinute: perMinute(values.rpm, "rpm"), tokensPerMinute: perMinute(values.tpm, "tpm")
    }), (limit) => formatLimits([limit]));
    case "limits list": return show(await store.listRateLimits(await workspaceArg(store, args)), formatLimits);
    case "keys create": {
        want(1);
        const owner: KeyOwner = values.user != null ? {type: "user", userId: values.user} : {type: "workspace"};
        const issued = await store.createKey({workspaceId: (await store.requireWorkspace(args[0])).id, name: values.name, owner,
            visibility: values.shared || values.user == null ? "shared" : "private"});
        return show(issued, ({key, secret}) => `key ${key.id} (${key.name}) in workspace ${key.workspaceId}:\n${secret}\n` +
            "This is the only time the secret is shown: it is stored as a hash. Keep it now.");
    }
    case "keys list": return show(await store.listKeys({workspaceId: await workspaceArg(store, args), userId: values.user}), (keys) =>
        formatTable(["id", "workspace", "name", "owner", "visibility", "starts", "state", "issued"], keys.map((key) => [key.id, key.workspaceId, key.name,
            key.owner.type === "user" ? `user ${key.owner.userId}` : "workspace", key.visibility, key.hint, key.state, key.issuedAt])));
    case "keys rotate": want(1); return show(await store.rotateKey(args[0]), ({key, secret}) => `key ${key.id}: new secret (the old one no longer works):\n${secret}\n` +
        "This is the only time the secret is shown. Keep it now.");
    case "keys revoke": want(1); return show(await store.revokeKey(args[0]), (key) => `key ${key.id} revoked at ${key.revokedAt}: it fails from the next request`);
    default: throw new UsageError(`unknown admin command: ${[noun, verb].filter((word) => word != null).join(" ")}\n${adminUsage}`);
    }
}

async function usage(store: ServiceBackend, args: string[], values: Values): Promise<string> {
    const groupBy: UsageGroup[] = checkGroups((values.by ?? "key,model,day").split(",").map((group) => group.trim()).filter((group) => group !== ""));
    const format = values.format ?? (values.json ? "json" : "table");
    const rows = await store.usageReport({workspaceId: await workspaceArg(store, args), keyId: values.key, groupBy, since: values.since, until: values.until});
    if (format === "json") return JSON.stringify({groupBy, rows}, null, 2);
    if (format === "csv") return usageCsv(rows, groupBy).trimEnd();
    if (format !== "table") throw new UsageError(`--format is table, csv or json, got ${JSON.stringify(format)}`);
    const columns = usageColumns(groupBy);
    return rows.length === 0 ? "no usage recorded" : formatTable(columns.map((column) => column.header), rows.map((row) => columns.map((column) => column.value(row))));
}

async function workspaceArg(store: ServiceBackend, args: string[]): Promise<string | undefined> {
    if (args.length > 1) throw new UsageError(`expected at most one workspace, got ${args.length} arguments`);
    return args[0] != null ? (await store.requireWorkspace(args[0])).id : undefined;
}

function perMinute(text: string | undefined, flag: string): number | null {
    if (text == null || text === "none") return null;
    if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`--${flag} is a whole number from 1, or none, got ${JSON.stringify(text)}`);
    return Number(text);
}

function formatPrices(prices: Array<{model: string, inputMicrosPerMillion: number, cachedInputMicrosPerMillion: number, outputMicrosPerMillion: number}>): string {
    return formatTable(["model", "input/M", "cached input/M", "output/M"], prices.map((price) => [price.model,
        formatMoney(price.inputMicrosPerMillion), formatMoney(price.cachedInputMicrosPerMillion), formatMoney(price.outputMicrosPerMillion)]));
}

function formatLimits(limits: Array<{workspaceId: string, model: string, requestsPerMinute: number | null, tokensPerMinute: number | null}>): string {
    return formatTable(["workspace", "model", "requests/min", "tokens/min"], limits.map((limit) =>
        [limit.workspaceId, limit.model, String(limit.requestsPerMinute ?? "none"), String(limit.tokensPerMinute ?? "none")]));
}
