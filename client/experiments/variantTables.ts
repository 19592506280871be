import type {CellResult, ExperimentSpec} from "./types.ts";
import type {MetricTable} from "./metricTables.ts";
import {decisionTables, type DecisionAnswers, type DecisionDataset} from "./decisionTables.ts";
import {chatTables, checkNames} from "./chatTables.ts";
import {checkNames as specCheckNames} from "./checks.ts";

// An experiment's cells as each variant's metric tables, over the positions of its sample: what the summary
// compares variants on, and what a comparison against a baseline run reads its per-row outcomes from.

/** Where each dataset row stands in the sample (-1: not in it), and the sample's size. */
export type Positions = {count: number, positionOf: (rowIndex: number) => number};

/** The positions of `rowIndexes` (default every row) in the sample. */
export function positionsOf(dataset: DecisionDataset, rowIndexes?: readonly number[]): Positions {
    const indexes = rowIndexes ?? dataset.rows.map((_row, index) => index);
    const map = new Int32Array(dataset.rows.length).fill(-1);
    indexes.forEach((rowIndex, position) => {
        if (rowIndex >= 0 && rowIndex < map.length) map[rowIndex] = position;
    });
    return {count: indexes.length, positionOf: (rowIndex) => rowIndex >= 0 && rowIndex < map.length ? map[rowIndex] : -1};
}

export type VariantTables = {
    /** Each variant's cells in the sample. */
    byVariant: CellResult[][],
    /** Each variant's metric tables (decision: per question, raw and calibrated; chat: checks and scores). */
    tables: MetricTable[][],
    /** Decision variants: their answers, for the disagreements; null for chat variants. */
    answers: Array<DecisionAnswers[] | null>,
    warnings: string[]
};

/** Every variant's tables from the cells of the sample's rows (cells of other rows or variants are left out). */
export function variantTables(spec: ExperimentSpec, dataset: DecisionDataset, cells: readonly CellResult[], positions: Positions): VariantTables {
    const byVariant = spec.variants.map(() => [] as CellResult[]);
    for (const cell of cells) if (positions.positionOf(cell.rowIndex) >= 0 && byVariant[cell.variant] !== undefined) byVariant[cell.variant].push(cell);
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
            tables.push(chatTables(byVariant[index], names, graders, positions.positionOf, positions.count));
            answers.push(null);
        }
    });
    return {byVariant, tables, answers, warnings};
}
