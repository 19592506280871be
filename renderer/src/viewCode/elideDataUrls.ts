const keepChars = 24;
const longerThan = 96;

/**
 * A copy of `value` with every long `data:` URL cut to its head and a note of how much was left out,
 * e.g. `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA…[12.3 kB elided]`.
 */
export function elideDataUrls<T>(value: T): T {
    if (typeof value === "string") return (value.startsWith("data:") && value.length > longerThan ? shorten(value) : value) as T;
    if (Array.isArray(value)) return value.map(elideDataUrls) as T;
    if (value !== null && typeof value === "object")
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, elideDataUrls(item)])) as T;
    return value;
}

function shorten(url: string): string {
    const comma = url.indexOf(",");
    const head = url.slice(0, comma + 1 + keepChars);
    const left = url.length - head.length;
    return `${head}…[${(left / 1000).toFixed(1)} kB elided]`;
}
