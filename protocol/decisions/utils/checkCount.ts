import type {FieldPath} from "../../validation/ValidationError.ts";
import {fail} from "../../validation/read.ts";

const numberWords = ["zero", "one", "two"];

/**
 * Fails at `path` unless `count` lies in [min, max], naming the items (e.g. "must hold at least two choices",
 * the wording spec 7 gives for a choice question with one choice). `noun` is [singular, plural].
 */
export function checkCount(count: number, path: FieldPath, noun: readonly [string, string], range: {min: number, max: number, maxReason?: string}) {
    if (count < range.min)
        fail(path, `must hold at least ${numberWords[range.min] ?? range.min} ${range.min === 1 ? noun[0] : noun[1]}, got ${count}`);
    if (count > range.max)
        fail(path, `holds ${count} ${noun[1]}; at most ${range.max.toLocaleString("en-US")} are allowed${range.maxReason ? ` ${range.maxReason}` : ""}`);
}
