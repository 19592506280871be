/**
 * The delimiter of a CSV from its first line: a comma unless that line holds none and holds tabs or
 * semicolons (a TSV, or a CSV from a locale where the comma is the decimal mark). Quoted text is ignored.
 */
export function sniffDelimiter(sample: string): string {
    let inQuotes = false;
    const counts: Record<string, number> = {",": 0, "\t": 0, ";": 0};
    for (const character of sample) {
        if (character === "\"") inQuotes = !inQuotes;
        else if (!inQuotes && (character === "\n" || character === "\r")) break;
        else if (!inQuotes && character in counts) counts[character]++;
    }
    if (counts[","] > 0) return ",";
    if (counts["\t"] === 0 && counts[";"] === 0) return ",";
    return counts["\t"] >= counts[";"] ? "\t" : ";";
}
