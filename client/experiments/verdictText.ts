import type {Difference} from "./types.ts";
import {formatInterval, formatLevel, formatMetric, formatPValue, metricDefinition} from "./metricDefinitions.ts";
import {defaultPower} from "./power.ts";

// A comparison's verdict in words, as the screen, the report and the CLI show it: which variant is better (or in
// which direction a secondary metric moved) with the interval, Holm's correction when it applies, and, when no clear
// difference was found, what the comparison could have detected.

const plainRowCount = (n: number) => `${n} ${n === 1 ? "row" : "rows"}`;

export type VerdictInput = Pick<Difference, "metric" | "a" | "b" | "n" | "delta" | "low" | "high" | "better" | "primary" | "provisional" | "level"> & Partial<Pick<Difference, "holm" | "detectable" | "mcnemar" | "repeats">>;

const powerPercent = `${Math.round(defaultPower * 100)}%`;

/**
 * What a comparison that found no clear difference could have found: "; it had an 80% chance to detect a difference
 * of 0.068", or, when too few rows differ for any difference to be found that often, how many did.
 */
function detectableText(difference: VerdictInput, rowCount: (n: number) => string): string {
    const {detectable, mcnemar, n} = difference;
    if (detectable === undefined) return "";
    if (detectable === null) {
        const differing = mcnemar === undefined ? "" : `with only one variant right on ${mcnemar.onlyA + mcnemar.onlyB} of ${rowCount(n)}, `;
        return `; ${differing}no difference had an ${powerPercent} chance to be detected`;
    }
    return `; it had an ${powerPercent} chance to detect a difference of ${formatMetric(detectable)}`;
}

/**
 * The verdict in words. The primary metric names the better variant with its gain (for a lower-is-better metric,
 * how much lower) and interval: "B is better by 0.06 (0.02–0.10)". A secondary metric says only the direction:
 * "secondary: B lower by 0.02 (0.01–0.03)". Without a clear difference the interval is still shown, B less A, so
 * that a wide one reads as wide: "no clear difference: 0.01 (-0.08 to 0.10) on 50 rows", followed by what the run
 * could have detected when known ("; it had an 80% chance to detect a difference of 0.117"). Holm's correction follows
 * when it applies; "provisional, on 49 of 200 rows: " goes in front while a variant still lacks rows (`rows` is
 * the sample's size). `names` are the variants' names by index.
 */
export function verdictText(difference: VerdictInput, names: readonly string[], rows: number): string {
    const {delta, low, high, better, n, primary} = difference;
    // With repeats n counts answers: "50 rows × 3 repeats".
    const repeats = difference.repeats ?? 1;
    const rowCount = (count: number) => repeats > 1 && count % repeats === 0 ? `${plainRowCount(count / repeats)} × ${repeats} repeats` : repeats > 1 ? `${count} answers` : plainRowCount(count);
    if (n === 0) return `not enough rows to compare (${rowCount(n)})`;
    if (delta === null) return `undefined on the ${rowCount(n)} both have (an AUC needs rows of both labels)`;
    if (low === null || high === null) return `${primary ? "" : "secondary: "}no interval on ${rowCount(n)}: too few rows of one label for the bootstrap`;
    let text: string;
    if (better === null) text = `${primary ? "" : "secondary: "}no clear difference: ${formatInterval(delta, low, high)}${difference.provisional ? "" : ` on ${rowCount(n)}`}`;
    else {
        const {higherIsBetter} = metricDefinition(difference.metric);
        // The gain is B less A when B is better on a higher-is-better metric or A is better on a lower-is-better one.
        const sign = (better === difference.b) === higherIsBetter ? 1 : -1;
        const [gainLow, gainHigh] = sign === 1 ? [low, high] : [-high, -low];
        const gain = formatInterval(sign * delta, gainLow, gainHigh);
        const name = names[better] ?? String(better);
        text = primary ? `${name} is better by ${gain}` : `secondary: ${name} ${higherIsBetter ? "higher" : "lower"} by ${gain}`;
    }
    if (difference.holm !== undefined)
        text += `; after Holm's correction over ${difference.holm.comparisons} comparisons, ${formatPValue(difference.holm.pValue)}, ${formatLevel(difference.level)} interval`;
    if (better === null) text += detectableText(difference, rowCount);
    return difference.provisional ? `provisional, on ${n} of ${repeats > 1 ? `${rows} answers` : plainRowCount(rows)}: ${text}` : text;
}

/** The definition of the test column, for its heading's hover. */
export const testColumnDefinition = "The test the verdict rests on, its p-value before any correction: McNemar's exact test on the rows only one variant got right " +
    "(only first / only second), or, when rows are clustered (a cluster column, or a row's repeats), the cluster-robust test: the mean per-row difference over " +
    "its clustered standard error (Liang–Zeger, times G/(G − 1)) against Student's t on G − 1 degrees of freedom for G clusters.";

/** A difference's test in a cell: "p = 0.125 (0 / 3)" for McNemar's, "clustered p = 0.025, 6 clusters" for the cluster-robust one; "" without one. */
export function testText(difference: Pick<Difference, "mcnemar" | "clustered" | "method">): string {
    if (difference.method === "cluster" && difference.clustered !== undefined)
        return `clustered ${formatPValue(difference.clustered.pValue)}, ${difference.clustered.clusters} clusters`;
    return difference.mcnemar ? `${formatPValue(difference.mcnemar.pValue)} (${difference.mcnemar.onlyA} / ${difference.mcnemar.onlyB})` : "";
}
