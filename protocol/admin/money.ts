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

/** The unit the app names money in: the workspace's prepaid credits (the service bills in them, no currency). */
export const moneyUnit = "credits";

/**
 * Money as every screen shows it: two decimals (rounded half up, in integers) from 0.01 up, so a balance reads
 * `24.94` beside `25.00`; a smaller non-zero amount keeps its digits (`0.000045`) rather than reading `0.00`. The exact
 * amount is formatMoney's, for a title beside it.
 */
export function displayMoney(micros: number): string {
    const hundredth = microsPerUnit / 100;
    if (micros !== 0 && Math.abs(micros) < hundredth) return formatMoney(micros);
    const sign = micros < 0 ? "-" : "";
    const cents = Math.floor((Math.abs(micros) + hundredth / 2) / hundredth);
    return `${sign}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/**
 * One axis's money ticks with one number of decimals, from the largest value on it: two from 0.01 up, more below, so
 * that the largest tick shows at least two significant digits (`0.000000`, `0.000045`, `0.000090`). Returns the
 * formatter.
 */
export function axisMoney(maxMicros: number): (micros: number) => string {
    const hundredth = microsPerUnit / 100;
    const largest = Math.abs(maxMicros);
    const decimals = largest >= hundredth || largest === 0 ? 2 : Math.min(6, 2 + Math.ceil(Math.log10(hundredth / largest)) + 1);
    return (micros) => (micros / microsPerUnit).toFixed(decimals);
}
