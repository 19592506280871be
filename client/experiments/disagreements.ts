import type {CellResult, DecisionPrompt, Disagreement} from "./types.ts";
import type {DecisionAnswers} from "./decisionTables.ts";
import {parseQuestionSet, questionInfos, readAnswers, type NormalizedAnswer, type QuestionInfo, type StoredResponse} from "../scoring/questions.ts";
import {predictedIndex} from "../scoring/evaluation.ts";
import {formatScoreReading, readScore} from "../scoring/scoreLevels.ts";
import {formatCount, formatMetric} from "./metricDefinitions.ts";
import type {Positions} from "./variantTables.ts";

// The rows where the variants part ways, the ones worth reading first. A row is a disagreement when two or more
// variants have a result for it and they differ: on a question the decision variants share, one failed (or gave no
// readable answer) while another answered, they failed with different errors, or they picked different options (so
// on a labelled row one may be right where another is wrong); for the chat variants, their outcomes differ, their
// checks pass differently, or their check scores differ. A row where every variant does the same (all right, all
// picking the same wrong option, all failing alike) tells the variants nothing apart and is not listed. Entries are
// one per row and question (per row for the chat checks), sorted by their spread (spreadDefinition), then by row.

type Cell = Disagreement["cells"][number];

/** What the app and the report call the sort key of the disagreements. */
export const spreadName = "Spread";

/** The spread in words, for the hover text of its column in the app and the report. */
export const spreadDefinition = "Spread: the largest difference between the variants' scores on this row, from 0 to 1. " +
    "On a question, a variant's score is the probability it gives the labelled option (on an unlabelled row, the option the first variant picked); " +
    "on the chat checks, the mean of its check scores. A variant that failed has no score.";

const replyPreview = 80;

function errorCell(variant: number, cell: CellResult): Cell {
    return {variant, summary: `error: ${cell.error?.message ?? cell.error?.code ?? "failed"}`, correct: null, score: null};
}

/** A failed cell's outcome: failures with the same error code are the same outcome. */
function failure(cell: CellResult): string {
    return `failed ${cell.error?.code ?? ""}`;
}

/** "yes 0.83", "positive 0.71", "expected 2.30 · most likely 2": the answer as the disagreements table shows it. */
export function answerSummary(info: QuestionInfo, answer: NormalizedAnswer, picked = predictedIndex(info, answer)): string {
    if (info.kind === "score") return formatScoreReading(readScore(answer));
    return `${optionName(info, picked)} ${formatMetric(answer.probabilities[picked])}`;
}

function optionName(info: QuestionInfo, index: number): string {
    if (info.kind === "yesno") return index === 0 ? "yes" : "no";
    return info.options[index].label;
}

/** The largest difference between the scores given (spreadDefinition); 0 with fewer than two. */
function spread(scores: ReadonlyArray<number | null>): number {
    let low = Infinity, high = -Infinity, scored = 0;
    for (const score of scores) {
        if (score === null) continue;
        scored++;
        low = Math.min(low, score);
        high = Math.max(high, score);
    }
    return scored < 2 ? 0 : high - low;
}

/** Whether at least two outcomes were seen and they are not all the same. */
function differ(outcomes: readonly string[]): boolean {
    return outcomes.length >= 2 && outcomes.some((outcome) => outcome !== outcomes[0]);
}

function questionDisagreements(name: string, variantAnswers: ReadonlyArray<DecisionAnswers | undefined>, cellAt: ReadonlyArray<Array<CellResult | undefined>>, positions: number, rowIndexOf: (position: number) => number): Disagreement[] {
    // Each outcome as a number, so that most rows (where the variants agree) are compared and let go without a string:
    // per variant and position, the outcome's id (-1: no result) and the option picked (-1: none).
    const ids = new Map<string, number>();
    const idOf = (outcome: string) => ids.get(outcome) ?? ids.set(outcome, ids.size).get(outcome)!;
    const outcomes = variantAnswers.map((entry, variant) => {
        const outcome = new Int32Array(positions).fill(-1), picks = new Int32Array(positions).fill(-1);
        if (entry === undefined) return {outcome, picks};
        // Compared by the option's value: two versions of a question may order or extend their options differently.
        const picked = entry.info.options.map((option) => idOf(`picked ${JSON.stringify(option.value)}`));
        const unreadable = idOf("no readable answer");
        const cells = cellAt[variant];
        for (let position = 0; position < positions; position++) {
            const cell = cells[position];
            if (cell === undefined) continue;
            if (!cell.ok) {
                outcome[position] = idOf(failure(cell));
                continue;
            }
            const answer = entry.answers[position];
            if (answer === null) {
                outcome[position] = unreadable;
                continue;
            }
            picks[position] = predictedIndex(entry.info, answer);
            outcome[position] = picked[picks[position]];
        }
        return {outcome, picks};
    });
    const found: Disagreement[] = [];
    for (let position = 0; position < positions; position++) {
        let first = -1, seen = 0, differs = false;
        for (const {outcome} of outcomes) {
            const id = outcome[position];
            if (id < 0) continue;
            seen++;
            if (first < 0) first = id;
            else if (id !== first) differs = true;
        }
        if (seen < 2 || !differs) continue;
        const cells: Cell[] = [];
        let reference = -1;
        variantAnswers.forEach((entry, variant) => {
            const cell = cellAt[variant][position];
            if (entry === undefined || cell === undefined) return;
            const pick = outcomes[variant].picks[position];
            if (!cell.ok) cells.push(errorCell(variant, cell));
            else if (pick >= 0) {
                const answer = entry.answers[position]!, label = entry.labels[position];
                if (reference < 0) reference = pick;
                cells.push({variant, summary: answerSummary(entry.info, answer, pick), correct: label === null ? null : pick === label,
                    score: answer.probabilities[label ?? reference] ?? null});
            } else cells.push({variant, summary: "no readable answer", correct: null, score: null});
        });
        found.push({rowIndex: rowIndexOf(position), question: name, size: spread(cells.map((cell) => cell.score)), cells});
    }
    return found;
}

/** The mean of a reply's check scores; null without checks. */
function checkScore(cell: CellResult): number | null {
    const checks = cell.checks ?? [];
    return checks.length === 0 ? null : checks.reduce((sum, check) => sum + check.score, 0) / checks.length;
}

function replyText(cell: CellResult): string {
    const reply = (cell.reply ?? "").replace(/\s+/g, " ").trim();
    return reply.length > replyPreview ? `${reply.slice(0, replyPreview - 1)}…` : reply;
}

/** What a chat variant did on a row, for telling variants apart: its checks' results, or its share of passing repeats, or its error. */
function chatOutcome(repeats: readonly CellResult[]): string {
    if (repeats.length === 1) {
        const cell = repeats[0];
        if (!cell.ok) return failure(cell);
        let outcome = "checks ";
        for (const check of cell.checks ?? []) outcome += check.pass ? "1" : "0";
        return outcome;
    }
    if (!repeats.some((cell) => cell.ok)) return failure(repeats[0]);
    return `passed ${repeats.filter(passedAll).length}/${repeats.length}`;
}

function passedAll(cell: CellResult): boolean {
    return cell.ok && (cell.checks ?? []).every((check) => check.pass);
}

/** A chat variant's score on a row: its reply's mean check score, or with repeats the mean over its answered replies; null without one. */
function chatScore(repeats: readonly CellResult[]): number | null {
    const scores = repeats.filter((cell) => cell.ok).map(checkScore).filter((score): score is number => score !== null);
    return scores.length === 0 ? null : scores.reduce((a, b) => a + b, 0) / scores.length;
}

/** One chat variant's cell of a row: its reply's checks, or with repeats, how many of its replies passed them all. */
function chatCell(variant: number, repeats: readonly CellResult[]): Cell {
    if (repeats.length === 1) {
        const cell = repeats[0];
        if (!cell.ok) return errorCell(variant, cell);
        const checks = cell.checks ?? [];
        return {variant, summary: `${checks.filter((check) => check.pass).length}/${checks.length} checks · ${replyText(cell)}`, correct: checks.length === 0 ? null : checks.every((check) => check.pass), score: checkScore(cell)};
    }
    // A row asked several times reads as one cell with its spread: the share of its replies that passed every check.
    const answered = repeats.filter((cell) => cell.ok);
    if (answered.length === 0) return errorCell(variant, repeats[0]);
    const passed = repeats.filter(passedAll).length;
    const errors = repeats.length - answered.length;
    const summary = `${passed}/${repeats.length} repeats passed${errors === 0 ? "" : ` (${errors} failed)`} · ${replyText(answered[0])}`;
    return {variant, summary, correct: passed === repeats.length ? true : passed === 0 ? false : null, score: chatScore(repeats)};
}

function checkDisagreements(variants: readonly number[], cellsOf: (variant: number, row: number) => readonly CellResult[], rows: number, rowIndexOf: (row: number) => number): Disagreement[] {
    const found: Disagreement[] = [];
    const outcomes: string[] = [];
    const scores: Array<number | null> = [];
    for (let row = 0; row < rows; row++) {
        outcomes.length = 0;
        scores.length = 0;
        for (const variant of variants) {
            const repeats = cellsOf(variant, row);
            if (repeats.length === 0) continue;
            outcomes.push(chatOutcome(repeats));
            // A failed reply (every repeat failed) has no score, as its cell shows.
            scores.push(repeats.some((cell) => cell.ok) ? chatScore(repeats) : null);
        }
        const size = spread(scores);
        if (outcomes.length < 2 || !(differ(outcomes) || size > 0)) continue;
        const cells = variants.filter((variant) => cellsOf(variant, row).length > 0).map((variant) => chatCell(variant, cellsOf(variant, row)));
        found.push({rowIndex: rowIndexOf(row), size, cells});
    }
    return found;
}

/**
 * Disagreements of every question the decision variants share and of the chat variants' checks, largest spread
 * first (then by row). `answers[variant]` is null for a chat variant.
 */
export function findDisagreements(variantCount: number, cellsByVariant: ReadonlyArray<readonly CellResult[]>, answers: ReadonlyArray<DecisionAnswers[] | null>, positions: Pick<Positions, "rows" | "rowPositionOf">): Disagreement[] {
    const isChat = (variant: number) => answers[variant] === null;
    // Each variant's cells by row, once: its first cell per row, and for a row answered several times (repeats)
    // all its cells in order, kept apart so that a run without repeats makes no list per row.
    const cellAt = cellsByVariant.map((cells) => {
        const at = new Array<CellResult | undefined>(positions.rows).fill(undefined);
        for (const cell of cells) {
            const position = positions.rowPositionOf(cell.rowIndex);
            if (at[position] === undefined || (at[position].repeat ?? 0) > (cell.repeat ?? 0)) at[position] = cell;
        }
        return at;
    });
    const repeatsAt = cellsByVariant.map((cells, variant) => {
        const more = new Map<number, CellResult[]>();
        if (!isChat(variant)) return more;
        for (const cell of cells) {
            const position = positions.rowPositionOf(cell.rowIndex);
            const first = cellAt[variant][position]!;
            if (cell === first) continue;
            const list = more.get(position) ?? more.set(position, [first]).get(position)!;
            list.push(cell);
        }
        for (const list of more.values()) list.sort((x, y) => (x.repeat ?? 0) - (y.repeat ?? 0));
        return more;
    });
    const cellsOf = (variant: number, row: number): readonly CellResult[] => {
        const first = cellAt[variant][row];
        return repeatsAt[variant].get(row) ?? (first === undefined ? [] : [first]);
    };
    const rowIndexes = new Array<number>(positions.rows).fill(-1);
    for (const cells of cellsByVariant) for (const cell of cells) rowIndexes[positions.rowPositionOf(cell.rowIndex)] = cell.rowIndex;
    const rowIndexOf = (position: number) => rowIndexes[position];

    const found: Disagreement[] = [];
    const questions = [...new Set(answers.flatMap((entries) => entries?.map((entry) => entry.info.name) ?? []))];
    for (const name of questions) {
        const perVariant = Array.from({length: variantCount}, (_unused, variant) => answers[variant]?.find((entry) => entry.info.name === name));
        found.push(...questionDisagreements(name, perVariant, cellAt, positions.rows, rowIndexOf));
    }
    const chatVariants = Array.from({length: variantCount}, (_unused, variant) => variant).filter(isChat);
    if (chatVariants.length > 0) found.push(...checkDisagreements(chatVariants, cellsOf, positions.rows, rowIndexOf));
    return found.sort((x, y) => y.size - x.size || x.rowIndex - y.rowIndex || (x.question ?? "").localeCompare(y.question ?? ""));
}

/**
 * One disagreement's identity: a row holds one per question (and one for the checks), so the row alone is not
 * unique. A list drawn from the disagreements keys its items by this.
 */
export function disagreementKey(disagreement: Pick<Disagreement, "rowIndex" | "question">): string {
    return disagreement.question === undefined ? `${disagreement.rowIndex}` : `${disagreement.rowIndex}:${disagreement.question}`;
}

/** "653 disagreements on 200 rows": the entries (row × question) and the distinct rows they are on. */
export function describeDisagreementCount(disagreements: ReadonlyArray<Pick<Disagreement, "rowIndex">>): string {
    const rows = new Set(disagreements.map((disagreement) => disagreement.rowIndex)).size;
    const entries = disagreements.length;
    return `${formatCount(entries)} disagreement${entries === 1 ? "" : "s"} on ${formatCount(rows)} row${rows === 1 ? "" : "s"}`;
}

/** One answer of a decision response, readably: the option picked and its probability. */
export type AnswerLine = {question: string, picked: string, probability: number, expected?: number};

/**
 * The answers of a decision variant's stored response, per question: the option it picks (a score question's most
 * likely level) and that option's probability, and for a score the expected level. Null when the response does not
 * fit the question set (the raw JSON says why).
 */
export function answerLines(prompt: DecisionPrompt, response: unknown): AnswerLine[] | null {
    try {
        const infos = questionInfos(parseQuestionSet(prompt.questionSet).normalized);
        return readAnswers(prompt.questionSet.format, infos, response as StoredResponse).map((answer, index) => {
            const info = infos[index];
            const picked = predictedIndex(info, answer);
            const line: AnswerLine = {question: info.name, picked: info.kind === "score" ? `${picked}: ${info.options[picked].label}` : optionName(info, picked), probability: answer.probabilities[picked]};
            return info.kind === "score" ? {...line, expected: readScore(answer).expected} : line;
        });
    } catch {
        return null;
    }
}
