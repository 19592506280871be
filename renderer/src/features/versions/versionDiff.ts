// Comparing two versions line by line: each version as text (messages as their text, a question set in the fixed key
// order the Decision studio and its saved files use, the rest as pretty JSON with sorted keys, so the same prompt always
// reads the same), the longest common subsequence of their lines, and the rows of a side-by-side view where a removed
// line sits beside the line that replaced it.
import type {PromptVersion} from "../../../../client/experiments/types.ts";

/** JSON with object keys sorted at every depth and a 2-space indent: equal values give equal text. */
export function stableJson(value: unknown): string {
    const sorted = (item: unknown): unknown => Array.isArray(item) ? item.map(sorted)
        : item !== null && typeof item === "object"
            ? Object.fromEntries(Object.keys(item).sort().map((key) => [key, sorted((item as Record<string, unknown>)[key])]))
            : item;
    return JSON.stringify(sorted(value), null, 2) ?? "null";
}

/** A message's text: a string content as is, parts as their text (images as one line naming them). */
function messageText(content: unknown): string {
    if (typeof content === "string") return content;
    if (!Array.isArray(content)) return content === null || content === undefined ? "" : stableJson(content);
    return content.map((part: Record<string, unknown>) => typeof part.text === "string" ? part.text
        : part.type === "image_url" || part.type === "input_image" ? `[image ${String((part.image_url as {url?: unknown})?.url ?? part.image_url ?? "").slice(0, 40)}…]`
            : stableJson(part)).join("\n");
}

/**
 * A version as the lines its diff compares: the note, then for a chat prompt each message (and Responses' instructions
 * and input) as a `── role ──` line and its text, then every other field as pretty JSON; a question set as pretty JSON.
 */
export function versionText(version: PromptVersion): string {
    const lines = [`note: ${version.note || "(none)"}`];
    const prompt = version.prompt;
    if (prompt.kind === "decision") {
        // Saved from the studio's JSON, a question set already has its fixed key order (format, name, ..., questions,
        // each question's type, name, instructions ...): shown as it reads there, not re-sorted.
        lines.push("── question set ──", JSON.stringify(prompt.questionSet, null, 2), "── input ──", stableJson(prompt.input));
        return lines.join("\n");
    }
    const {messages, instructions, input, ...rest} = prompt.body;
    if (typeof instructions === "string") lines.push("── instructions ──", instructions);
    const list = Array.isArray(messages) ? messages as Array<Record<string, unknown>>
        : input === undefined ? [] : typeof input === "string" ? [{role: "user", content: input}] : Array.isArray(input) ? input as Array<Record<string, unknown>> : [];
    for (const message of list) {
        const {role, content, ...other} = message;
        lines.push(`── ${String(role ?? "user")} ──`, messageText(content));
        if (Object.keys(other).length > 0) lines.push(stableJson(other));
    }
    if (Object.keys(rest).length > 0) lines.push("── request fields ──", stableJson(rest));
    return lines.join("\n");
}

export type DiffSide = {number: number, text: string};

/** One row of the side-by-side view: the same line on both sides, a line removed, added, or replaced by another. */
export type DiffRow =
    | {kind: "same", left: DiffSide, right: DiffSide}
    | {kind: "removed", left: DiffSide}
    | {kind: "added", right: DiffSide}
    | {kind: "changed", left: DiffSide, right: DiffSide};

/** Lines compared with the full table up to this many cells; longer texts fall back to comparing without it. */
const maxCells = 4_000_000;

/** The rows of the line diff from `before` to `after` (1-based line numbers). */
export function diffLines(before: string, after: string): DiffRow[] {
    const a = before.split("\n");
    const b = after.split("\n");
    // Common head and tail first: a small edit in a long prompt needs only a small table.
    let head = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) head++;
    let tail = 0;
    while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
    const midA = a.slice(head, a.length - tail);
    const midB = b.slice(head, b.length - tail);
    const ops: Array<"same" | "removed" | "added"> = [];
    for (let line = 0; line < head; line++) ops.push("same");
    ops.push(...middleOps(midA, midB));
    for (let line = 0; line < tail; line++) ops.push("same");
    return pairRows(ops, a, b);
}

/** The edit script of two line lists by their longest common subsequence (removals before additions in a run). */
function middleOps(a: string[], b: string[]): Array<"same" | "removed" | "added"> {
    const n = a.length;
    const m = b.length;
    if (n === 0 || m === 0 || (n + 1) * (m + 1) > maxCells) return [...a.map(() => "removed" as const), ...b.map(() => "added" as const)];
    // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
    const width = m + 1;
    const lengths = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--)
        for (let j = m - 1; j >= 0; j--)
            lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1] + 1 : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
    const ops: Array<"same" | "removed" | "added"> = [];
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
        if (a[i] === b[j]) {
            ops.push("same");
            i++;
            j++;
        } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
            ops.push("removed");
            i++;
        } else {
            ops.push("added");
            j++;
        }
    }
    while (i++ < n) ops.push("removed");
    while (j++ < m) ops.push("added");
    return ops;
}

/** Turns the edit script into rows: each run of removals and additions is paired line by line as changes. */
function pairRows(ops: Array<"same" | "removed" | "added">, a: string[], b: string[]): DiffRow[] {
    const rows: DiffRow[] = [];
    let i = 0;
    let j = 0;
    for (let k = 0; k < ops.length;) {
        if (ops[k] === "same") {
            rows.push({kind: "same", left: {number: i + 1, text: a[i]}, right: {number: j + 1, text: b[j]}});
            i++;
            j++;
            k++;
            continue;
        }
        const removed: DiffSide[] = [];
        const added: DiffSide[] = [];
        for (; k < ops.length && ops[k] !== "same"; k++) {
            if (ops[k] === "removed") removed.push({number: ++i, text: a[i - 1]});
            else added.push({number: ++j, text: b[j - 1]});
        }
        for (let index = 0; index < Math.max(removed.length, added.length); index++) {
            const left = removed[index];
            const right = added[index];
            rows.push(left && right ? {kind: "changed", left, right} : left ? {kind: "removed", left} : {kind: "added", right: right!});
        }
    }
    return rows;
}

/** Lines removed and added, for the diff's summary line. */
export function diffCounts(rows: readonly DiffRow[]): {removed: number, added: number} {
    let removed = 0;
    let added = 0;
    for (const row of rows) {
        if (row.kind === "removed" || row.kind === "changed") removed++;
        if (row.kind === "added" || row.kind === "changed") added++;
    }
    return {removed, added};
}
