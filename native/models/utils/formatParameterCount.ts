/** A parameter count as model cards write it: 224K, 596M, 1.7B (3 significant digits at most). */
export function formatParameterCount(count: number): string {
    const units: Array<[number, string]> = [[1e12, "T"], [1e9, "B"], [1e6, "M"], [1e3, "K"]];
    for (const [size, unit] of units)
        if (count >= size) return `${Number((count / size).toPrecision(3))}${unit}`;
    return String(count);
}
