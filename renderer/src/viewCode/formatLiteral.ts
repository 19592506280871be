const maxInlineWidth = 72;

export type LiteralStyle = "js" | "python";

/**
 * A JSON value as source code: JavaScript/TypeScript (identifier keys unquoted) or Python (True, False,
 * None). Small objects and arrays stay on one line; bigger ones get one entry per line, indented by
 * `indent` spaces per level, starting at `level`.
 */
export function formatLiteral(value: unknown, style: LiteralStyle, indent = 4, level = 0): string {
    if (value === null || value === undefined) return style === "python" ? "None" : "null";
    if (typeof value === "boolean") return style === "python" ? (value ? "True" : "False") : String(value);
    if (typeof value === "number") return Number.isFinite(value) ? String(value) : (style === "python" ? "None" : "null");
    if (typeof value === "string") return JSON.stringify(value);
    const entries = Array.isArray(value)
        ? value.map((item) => formatLiteral(item, style, indent, level + 1))
        : Object.entries(value as Record<string, unknown>).map(([key, item]) =>
            `${formatKey(key, style)}: ${formatLiteral(item, style, indent, level + 1)}`);
    const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    if (entries.length === 0) return open + close;
    const inline = style === "js" && !Array.isArray(value) ? `{${entries.join(", ")}}` : `${open}${entries.join(", ")}${close}`;
    if (!inline.includes("\n") && inline.length + level * indent <= maxInlineWidth) return inline;
    const pad = " ".repeat((level + 1) * indent);
    return `${open}\n${entries.map((entry) => pad + entry).join(",\n")}\n${" ".repeat(level * indent)}${close}`;
}

function formatKey(key: string, style: LiteralStyle): string {
    return style === "js" && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}
