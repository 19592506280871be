import {timingSafeEqual} from "node:crypto";

/** Constant-time comparison, so the token cannot be guessed byte by byte from response timings. */
export function tokensEqual(given: string | undefined, expected: string): boolean {
    if (given == null) return false;
    const a = Buffer.from(given, "utf8");
    const b = Buffer.from(expected, "utf8");
    return a.length === b.length && timingSafeEqual(a, b);
}
