// `/v1/systemone` accepts any JSON value as `state`; the model reads it as text, so equal states must give equal
// text whatever the key order the client used. Keys are sorted by UTF-16 code units (JSON.stringify would put
// integer-like keys first, whatever order the object was built in). Compact output: every byte is a token.
// Iterative, so deep nesting (as deep as the 100,000-value limit allows) cannot overflow the stack.

type Frame = {kind: "array", items: unknown[], next: number} | {kind: "object", object: Record<string, unknown>, keys: string[], next: number};

export function stableStringify(value: unknown): string {
    const out: string[] = [];
    const stack: Frame[] = [];

    // Writes a scalar, or opens a container and pushes its frame.
    const write = (item: unknown) => {
        if (item !== null && typeof item === "object") {
            if (typeof (item as {toJSON?: unknown}).toJSON === "function") {
                write((item as {toJSON: () => unknown}).toJSON());
                return;
            }
            if (Array.isArray(item)) {
                out.push("[");
                stack.push({kind: "array", items: item, next: 0});
            } else {
                const object = item as Record<string, unknown>;
                out.push("{");
                const keys = Object.keys(object).filter((key) => isSerializable(object[key])).sort();
                stack.push({kind: "object", object, keys, next: 0});
            }
            return;
        }
        // Same conventions as JSON.stringify: non-finite numbers become null, undefined in arrays becomes null.
        out.push(isSerializable(item) ? JSON.stringify(item) : "null");
    };

    write(value);
    while (stack.length > 0) {
        const frame = stack[stack.length - 1];
        if (frame.kind === "array") {
            if (frame.next === frame.items.length) {
                out.push("]");
                stack.pop();
                continue;
            }
            if (frame.next > 0) out.push(",");
            write(frame.items[frame.next++]);
        } else {
            if (frame.next === frame.keys.length) {
                out.push("}");
                stack.pop();
                continue;
            }
            if (frame.next > 0) out.push(",");
            const key = frame.keys[frame.next++];
            out.push(JSON.stringify(key), ":");
            write(frame.object[key]);
        }
    }
    return out.join("");
}

function isSerializable(value: unknown): boolean {
    return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}
