import type {CellResult, Disagreement} from "./types.ts";
import type {DecisionAnswers} from "./decisionTables.ts";
import type {NormalizedAnswer, QuestionInfo} from "../scoring/questions.ts";
import {predictedIndex} from "../scoring/evaluation.ts";
import {formatScoreReading, readScore} from "../scoring/scoreLevels.ts";
import {formatMetric} from "./metricDefinitions.ts";

// The rows worth reading first: where the variants pick different answers, one of them is wrong (or failed a
// check), or one failed outright. Sorted by how far apart the variants' scores are: for a question, the
// probability each gives the labelled option (the first variant's pick when unlabelled); for checks, the mean
// check score.

type Cell = Disagreement["cells"][number];

const replyPreview = 80;

function errorCell(variant: number, cell: CellResult): Cell {
    return {variant, summary: `error: ${cell.error?.message ?? cell.error?.code ?? "failed"}`, correct: null, score: null};
}

/** "yes 0.83", "positive 0.71", "expected 2.30 · most likely 2": the answer as the disagreements table shows it. */
export function answerSummary(info: QuestionInfo, answer: NormalizedAnswer, picked = predictedIndex(info, answer)): string {
    if (info.kind === "score") return formatScoreReading(readScore(answer));
    const name = info.kind === "yesno" ? (picked === 0 ? "yes" : "no") : info.options[picked].label;
    return `${name} ${formatMetric(answer.probabilities[picked])}`;
}

function spread(cells: readonly Cell[]): number {
    let low = Infinity, high = -Infinity, scored = 0;
    for (const {score} of cells) {
        if (score === null) continue;
        scored++;
        low = Math.min(low, score);
        high = Math.max(high, score);
    }
    return scored < 2 ? 0 : high - low;
}

function questionDisagreements(name: string, variantAnswers: ReadonlyArray<DecisionAnswers | undefined>, cellAt: ReadonlyArray<Array<CellResult | undefined>>, rowIndexOf: (position: number) => number): Disagreement[] {
    const found: Disagreement[] = [];
    const positions = cellAt[0]?.length ?? 0;
    // Each variant's pick on the current row (-1: no answer), reused across rows: most rows are read and let go.
    const picks = new Int32Array(variantAnswers.length);
    for (let position = 0; position < positions; position++) {
        let kept = false, first: unknown = undefined, reference = -1;
        variantAnswers.forEach((entry, variant) => {
            picks[variant] = -1;
            const cell = cellAt[variant][position];
            if (entry === undefined || cell === undefined) return;
            if (!cell.ok) {
                kept = true;
                return;
            }
            const answer = entry.answers[position];
            if (answer === null) return;
            const picked = predictedIndex(entry.info, answer);
            picks[variant] = picked;
            const label = entry.labels[position];
            if (label !== null && picked !== label) kept = true;
            const value = entry.info.options[picked].value;
            if (reference < 0) {
                reference = label ?? picked;
                first = value;
            } else if (value !== first) kept = true;
        });
        if (!kept) continue;
        const cells: Cell[] = [];
        variantAnswers.forEach((entry, variant) => {
            const cell = cellAt[variant][position];
            if (entry === undefined || cell === undefined) return;
            if (!cell.ok) cells.push(errorCell(variant, cell));
            else if (picks[variant] >= 0) {
                const answer = entry.answers[position]!, label = entry.labels[position];
                cells.push({variant, summary: answerSummary(entry.info, answer, picks[variant]), correct: label === null ? null : picks[variant] === label,
                    score: answer.probabilities[label ?? reference] ?? null});
            }
        });
        found.push({rowIndex: rowIndexOf(position), question: name, size: spread(cells), cells});
    }
    return found;
}

function checkDisagreements(variants: readonly number[], cellAt: ReadonlyArray<Array<CellResult | undefined>>, rowIndexOf: (position: number) => number): Disagreement[] {
    const found: Disagreement[] = [];
    const positions = cellAt[0]?.length ?? 0;
    for (let position = 0; position < positions; position++) {
        const cells: Cell[] = [];
        let notable = false;
        for (const variant of variants) {
            const cell = cellAt[variant][position];
            if (cell === undefined) continue;
            if (!cell.ok) {
                cells.push(errorCell(variant, cell));
                notable = true;
                continue;
            }
            const checks = cell.checks ?? [];
            const passed = checks.every((check) => check.pass);
            if (!passed) notable = true;
            const score = checks.length === 0 ? null : checks.reduce((sum, check) => sum + check.score, 0) / checks.length;
            const reply = (cell.reply ?? "").replace(/\s+/g, " ").trim();
            const text = reply.length > replyPreview ? `${reply.slice(0, replyPreview - 1)}…` : reply;
            cells.push({variant, summary: `${checks.filter((check) => check.pass).length}/${checks.length} checks · ${text}`, correct: checks.length === 0 ? null : passed, score});
        }
        const size = spread(cells);
        if (cells.length > 0 && (notable || size > 0)) found.push({rowIndex: rowIndexOf(position), size, cells});
    }
    return found;
}

/**
 * Disagreements of every question the decision variants share and of the chat variants' checks, largest spread
 * first (then by row). `answers[variant]` is null for a chat variant.
 */
export function findDisagreements(variantCount: number, cellsByVariant: ReadonlyArray<readonly CellResult[]>, answers: ReadonlyArray<DecisionAnswers[] | null>, positions: {count: number, positionOf: (rowIndex: number) => number}): Disagreement[] {
    const cellAt = cellsByVariant.map((cells) => {
        const at = new Array<CellResult | undefined>(positions.count).fill(undefined);
        for (const cell of cells) at[positions.positionOf(cell.rowIndex)] = cell;
        return at;
    });
    const rowIndexes = new Array<number>(positions.count).fill(-1);
    for (const cells of cellsByVariant) for (const cell of cells) rowIndexes[positions.positionOf(cell.rowIndex)] = cell.rowIndex;
    const rowIndexOf = (position: number) => rowIndexes[position];

    const found: Disagreement[] = [];
    const questions = [...new Set(answers.flatMap((entries) => entries?.map((entry) => entry.info.name) ?? []))];
    for (const name of questions) {
        const perVariant = Array.from({length: variantCount}, (_unused, variant) => answers[variant]?.find((entry) => entry.info.name === name));
        found.push(...questionDisagreements(name, perVariant, cellAt, rowIndexOf));
    }
    const chatVariants = Array.from({length: variantCount}, (_unused, variant) => variant).filter((variant) => answers[variant] === null);
    if (chatVariants.length > 0) found.push(...checkDisagreements(chatVariants, cellAt, rowIndexOf));
    return found.sort((x, y) => y.size - x.size || x.rowIndex - y.rowIndex);
}
