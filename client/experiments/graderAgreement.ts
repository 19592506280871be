import type {CellResult, ExperimentSpec, GraderAgreement, Measured} from "./types.ts";
import type {CellValue, SheetRow} from "../scoring/types.ts";
import type {Grader} from "./graderQuestions.ts";
import {checkNames} from "./checks.ts";
import {wilsonInterval} from "./stats.ts";
import {normalQuantile} from "./normal.ts";
import {eceBinCount, reliabilityBins} from "../scoring/evaluation.ts";

// A grader that stands in for people: when some rows carry a person's verdict on the property a grader checks
// (its `humanLabelColumn`), the grader is measured against them, the human label taken as the truth and the
// grader's pass as the test: sensitivity (share of human passes the grader passes), specificity (share of human
// fails it fails), Cohen's κ (agreement beyond chance) and the ECE of its score read as P(a person passes it).
// Its pass share over every graded reply is then corrected for those errors (Rogan & Gladen 1978):
// π̂ = (p̂ + Sp − 1)/(Se + Sp − 1), clipped to [0, 1], where p̂ = π·Se + (1 − π)(1 − Sp) is what an imperfect grader
// shows. Its interval is the delta method's (Rogan & Gladen 1978; Greiner & Gardner 2000) with J = Se + Sp − 1
// and the gradient (1, −π̂, 1 − π̂)/J of π̂ in (p̂, Se, Sp). The labelled rows are among the n graded ones, so p̂ shares
// their draws: given the n₁ rows a person passed and the n₀ they failed, Cov(p̂, Ŝe) = Se(1 − Se)/n and
// Cov(p̂, Ŝp) = −Sp(1 − Sp)/n, which gives
//     Var(π̂) ≈ [p̂(1 − p̂)/n + π̂²·Se(1 − Se)/n₁ + (1 − π̂)²·Sp(1 − Sp)/n₀ − 2(π̂·Se(1 − Se) + (1 − π̂)·Sp(1 − Sp))/n] / J².
// With every row labelled this is π̂(1 − π̂)/n, the human share's own variance (π̂ is then that share); with few
// labelled rows the Se and Sp terms dominate, so the interval is wider than the raw rate's by the grader's own
// uncertainty. The correction is not defined when J ≤ 0 (the grader does no better than chance on the labelled rows).
// When Se or Sp is estimated at exactly 1 its term is 0 and the interval is too narrow; the docs say label more rows
// then. A grader carrying a calibration (graderCalibration.ts) is measured on its calibrated score and pass, with the
// ECE of its score before calibration beside them.

/** A graded reply: the grader's score (0..1) and pass, and the person's verdict where there is one. */
export type GradedRow = {score: number, pass: boolean, human: boolean | null};

export type AgreementStats = Omit<GraderAgreement, "check" | "column">;

const yes = new Set(["yes", "y", "true", "1", "pass", "passed"]);
const no = new Set(["no", "n", "false", "0", "fail", "failed"]);

/**
 * A person's verdict from a cell: a score grader's level passes when it reaches the threshold on the levels'
 * scale; a choice grader's label passes when it is a passing one; otherwise (and for those too) yes / true / 1 /
 * pass against no / false / 0 / fail, any case. Null for a blank or unreadable cell.
 */
export function humanVerdict(grader: Grader, cell: CellValue | undefined): boolean | null {
    if (cell === null || cell === undefined) return null;
    if (typeof cell === "boolean") return cell;
    const text = String(cell).trim();
    if (text === "") return null;
    if (grader.levels !== undefined) {
        const level = Number(text);
        if (!Number.isFinite(level)) return null;
        const low = grader.levels[0], high = grader.levels[grader.levels.length - 1];
        return (level - low) / (high - low) >= (grader.threshold ?? 0.5);
    }
    if (grader.labels?.includes(text)) return (grader.passing ?? []).includes(text);
    const lower = text.toLowerCase();
    return yes.has(lower) ? true : no.has(lower) ? false : null;
}

const share = (count: number, n: number): number | null => n > 0 ? count / n : null;

/** Cohen's (1960) κ of two raters' yes / no on the same rows from their 2×2 table; null when chance agreement is 1. */
export function cohenKappa(both: number, onlyFirst: number, onlySecond: number, neither: number): number | null {
    const n = both + onlyFirst + onlySecond + neither;
    if (n === 0) return null;
    const observed = (both + neither) / n;
    const chance = ((both + onlyFirst) * (both + onlySecond) + (neither + onlySecond) * (neither + onlyFirst)) / (n * n);
    return chance >= 1 ? null : (observed - chance) / (1 - chance);
}

/**
 * The Rogan–Gladen corrected rate with its delta-method interval at `level` (see the top of this file), from the
 * observed pass share of n replies and the sensitivity and specificity on n₁ and n₀ labelled rows, which are among
 * the n; null when
 * Se + Sp − 1 ≤ 0 or a share is missing.
 */
export function roganGladen(observed: number, n: number, sensitivity: number, n1: number, specificity: number, n0: number, level = 0.95): {value: number, low: number, high: number} | null {
    const youden = sensitivity + specificity - 1;
    if (!(youden > 0) || n <= 0 || n1 <= 0 || n0 <= 0) return null;
    const raw = (observed + specificity - 1) / youden;
    const value = Math.min(1, Math.max(0, raw));
    const seTerm = sensitivity * (1 - sensitivity), spTerm = specificity * (1 - specificity);
    const variance = Math.max(0, observed * (1 - observed) / n + value * value * seTerm / n1 + (1 - value) * (1 - value) * spTerm / n0 -
        2 * (value * seTerm + (1 - value) * spTerm) / n) / (youden * youden);
    const half = normalQuantile(1 - (1 - level) / 2) * Math.sqrt(variance);
    return {value, low: Math.max(0, raw - half), high: Math.min(1, raw + half)};
}

/** The grader against the people on the rows with a verdict, and its pass share corrected, at `level`. */
export function measureAgreement(rows: readonly GradedRow[], level = 0.95): AgreementStats {
    let truePass = 0, falseFail = 0, falsePass = 0, trueFail = 0, passed = 0;
    const scores: number[] = [], humans: boolean[] = [];
    for (const row of rows) {
        if (row.pass) passed++;
        if (row.human === null) continue;
        scores.push(row.score);
        humans.push(row.human);
        if (row.human && row.pass) truePass++;
        else if (row.human) falseFail++;
        else if (row.pass) falsePass++;
        else trueFail++;
    }
    const positives = truePass + falseFail, negatives = falsePass + trueFail, labelled = positives + negatives;
    const rate = (count: number, n: number) => ({value: share(count, n), n, ...(n > 0 ? {interval: wilsonInterval(count, n, level)} : {})});
    const sensitivity = rate(truePass, positives), specificity = rate(trueFail, negatives), observed = rate(passed, rows.length);
    const corrected = sensitivity.value === null || specificity.value === null || observed.value === null ? null
        : roganGladen(observed.value, rows.length, sensitivity.value, positives, specificity.value, negatives, level);
    const ece: Measured = {value: labelled === 0 ? null : reliabilityBins(scores, humans, eceBinCount).ece, n: labelled};
    return {labelled, sensitivity, specificity, ece, kappa: {value: cohenKappa(truePass, falsePass, falseFail, trueFail), n: labelled},
        observed, corrected: corrected === null ? null : {...corrected, n: rows.length}};
}

/**
 * Per grader with a `humanLabelColumn` in the dataset, one variant's graded replies against the people; only the
 * graders with at least one labelled graded reply.
 */
export function graderAgreements(spec: ExperimentSpec, dataset: {columns: readonly string[], rows: readonly SheetRow[]}, cells: readonly CellResult[]): GraderAgreement[] {
    const names = checkNames(spec.checks);
    return spec.checks.flatMap((check, index): GraderAgreement[] => {
        if (check.kind !== "grader" || check.humanLabelColumn === undefined) return [];
        const column = dataset.columns.indexOf(check.humanLabelColumn);
        if (column < 0) return [];
        const rows: GradedRow[] = [];
        const raw: Array<{score: number, human: boolean}> = [];
        for (const cell of cells) {
            const result = cell.ok ? cell.checks?.find((candidate) => candidate.name === names[index]) : undefined;
            if (result === undefined) continue;
            const human = humanVerdict(check, dataset.rows[cell.rowIndex]?.[column]);
            rows.push({score: result.score, pass: result.pass, human});
            if (human !== null) raw.push({score: result.rawScore ?? result.score, human});
        }
        const stats = measureAgreement(rows);
        if (stats.labelled === 0) return [];
        const fit = check.calibration;
        // A calibrated grader: the ECE of its score before the calibration on the same rows, beside the fit's own figures.
        const calibration = fit === undefined ? {} : {calibration: {
            uncalibratedEce: {value: reliabilityBins(raw.map((row) => row.score), raw.map((row) => row.human), eceBinCount).ece, n: raw.length},
            fittedOn: fit.fittedOn, evaluatedOn: fit.evaluatedOn, heldOut: fit.heldOut, ...(fit.folds === undefined ? {} : {folds: fit.folds}),
            eceBefore: fit.before.ece, eceAfter: fit.after.ece
        }};
        return [{check: names[index], column: check.humanLabelColumn, ...stats, ...calibration}];
    });
}
