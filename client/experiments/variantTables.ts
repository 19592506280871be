import type {CellResult, ExperimentSpec} from "./types.ts";
import type {MetricTable} from "./metricTables.ts";
import {decisionTables, type DecisionAnswers, type DecisionDataset} from "./decisionTables.ts";
import {chatTables, checkNames} from "./chatTables.ts";
import {checkNames as specCheckNames} from "./checks.ts";

// An experiment's cells as each variant's metric tables, over the positions of its sample: what the summary
// compares variants on, and what a comparison against a baseline run reads its per-row outcomes from.

/**
 * Where each answer stands among the sample's answers (-1: not in it): each row's `repeats` answers sit together,
 * row after row, so without repeats a position is the row's place in the sample. `count` answers of `rows` rows.
 */
export type Positions = {
    count: number,
    rows: number,
    repeats: number,
    positionOf: (rowIndex: number, repeat?: number) => number,
    /** The row's place in the sample (-1: not in it). */
    rowPositionOf: (rowIndex: number) => number
};

/** The positions of `rowIndexes` (default every row) in the sample, each row asked `repeats` times (default once). */
export function positionsOf(dataset: DecisionDataset, rowIndexes?: readonly number[], repeats = 1): Positions {
    const indexes = rowIndexes ?? dataset.rows.map((_row, index) => index);
    const map = new Int32Array(dataset.rows.length).fill(-1);
    indexes.forEach((rowIndex, position) => {
        if (rowIndex >= 0 && rowIndex < map.length) map[rowIndex] = position;
    });
    const rowPositionOf = (rowIndex: number) => rowIndex >= 0 && rowIndex < map.length ? map[rowIndex] : -1;
    return {count: indexes.length * repeats, rows: indexes.length, repeats, rowPositionOf, positionOf: (rowIndex, repeat = 0) => {
        const row = rowPositionOf(rowIndex);
        return row < 0 || repeat < 0 || repeat >= repeats ? -1 : row * repeats + repeat;
    }};
}

export type VariantTables = {
    /** Each variant's cells in the sample. */
    byVariant: CellResult[][],
    /** Each variant's metric tables (decision: per question, raw and calibrated; chat: checks and scores). */
    tables: MetricTable[][],
    /** Decision variants: their answers, for the disagreements; null for chat variants. */
    answers: Array<DecisionAnswers[] | null>,
    /** The names of the experiment's grader checks, whose scores the chat tables average. */
    graders: string[],
    warnings: string[]
};

/** Every variant's tables from the cells of the sample's rows (cells of other rows or variants are left out). */
export function variantTables(spec: ExperimentSpec, dataset: DecisionDataset, cells: readonly CellResult[], positions: Positions): VariantTables {
    const byVariant = spec.variants.map(() => [] as CellResult[]);
    for (const cell of cells) if (positions.positionOf(cell.rowIndex, cell.repeat) >= 0 && byVariant[cell.variant] !== undefined) byVariant[cell.variant].push(cell);
    const names = checkNames(cells);
    const declared = specCheckNames(spec.checks);
    const graders = new Set(spec.checks.flatMap((check, index) => check.kind === "grader" ? [declared[index]] : []));
    const warnings: string[] = [];
    const tables: MetricTable[][] = [];
    const answers: Array<DecisionAnswers[] | null> = [];
    spec.variants.forEach((variant, index) => {
        if (variant.version.prompt.kind === "decision") {
            const result = decisionTables(variant.version.prompt, byVariant[index], dataset, positions.positionOf, positions.count);
            tables.push(result.tables);
            answers.push(result.answers);
            warnings.push(...result.warnings.map((warning) => `${variant.name}: ${warning}`));
        } else {
            tables.push(chatTables(byVariant[index], names, graders, positions));
            answers.push(null);
        }
    });
    return {byVariant, tables, answers, graders: [...graders], warnings};
}
