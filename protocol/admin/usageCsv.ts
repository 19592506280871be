import type {UsageGroup, UsageRow} from "./contract.ts";
import {formatMoney} from "./money.ts";

/** The columns of a usage report grouped by `groupBy`: the workspace, the groups, then the sums. */
export function usageColumns(groupBy: UsageGroup[]): Array<{header: string, value(row: UsageRow): string}> {
    const groups = {
        key: {header: "key", value: (row: UsageRow) => row.keyId ?? ""},
        model: {header: "model", value: (row: UsageRow) => row.model ?? ""},
        day: {header: "day", value: (row: UsageRow) => row.day ?? ""}
    };
    return [
        {header: "workspace", value: (row) => row.workspaceId ?? ""},
        ...groupBy.map((group) => groups[group]),
        {header: "requests", value: (row) => String(row.requests)},
        {header: "uncached_input_tokens", value: (row) => String(row.uncachedInputTokens)},
        {header: "cached_input_tokens", value: (row) => String(row.cachedInputTokens)},
        {header: "output_tokens", value: (row) => String(row.outputTokens)},
        {header: "cost", value: (row) => formatMoney(row.costMicros)}
    ];
}

/** A usage report as CSV (RFC 4180: quoted where needed, CRLF line ends), for the CLI and the app's export alike. */
export function usageCsv(rows: UsageRow[], groupBy: UsageGroup[]): string {
    const columns = usageColumns(groupBy);
    const lines = [columns.map((column) => column.header), ...rows.map((row) => columns.map((column) => column.value(row)))];
    return lines.map((cells) => cells.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

function csvCell(text: string): string {
    return /[",\r\n]/.test(text) ? `"${text.replaceAll("\"", "\"\"")}"` : text;
}
