// Money as integer micro-units (1,000,000 to one currency unit): parsed from and written as decimal text without
// ever passing through a float, so `0.1 + 0.2` style errors cannot reach a balance.

export const microsPerUnit = 1_000_000;

export class MoneyFormatError extends Error {
    public readonly code = "invalid_amount";

    public constructor(message: string) {
        super(message);
        this.name = "MoneyFormatError";
    }
}

/** `"12.5"` → 12_500_000. At most six decimals; `allowNegative` for corrections. */
export function parseMoney(text: string, {allowNegative = false} = {}): number {
    const match = /^(-)?(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
    if (match == null || (match[1] != null && !allowNegative))
        throw new MoneyFormatError(`not an amount: ${JSON.stringify(text)} (write it like 25 or 0.15, at most six decimals${allowNegative ? "" : ", not negative"})`);
    const micros = BigInt(match[2]) * BigInt(microsPerUnit) + BigInt((match[3] ?? "").padEnd(6, "0"));
    if (micros > BigInt(Number.MAX_SAFE_INTEGER)) throw new MoneyFormatError(`amount too large: ${text}`);
    return Number(match[1] != null ? -micros : micros);
}

/** 12_500_000 → `"12.50"`; 123 → `"0.000123"`: at least two decimals, no trailing zeros past them. */
export function formatMoney(micros: number): string {
    const sign = micros < 0 ? "-" : "";
    const absolute = Math.abs(micros);
    const units = Math.floor(absolute / microsPerUnit);
    const fraction = String(absolute % microsPerUnit).padStart(6, "0").replace(/0{1,4}$/, "");
    return `${sign}${units}.${fraction}`;
}
