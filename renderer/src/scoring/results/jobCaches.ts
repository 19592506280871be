import {readAnswers, type NormalizedAnswer, type CellValue, type RowResult} from "../../../../client/scoring/index.ts";
import type {ScoringJob} from "../state/useScoringStore.ts";

// Per-row values derived from a job's results, computed once per result: the grid, its sorting, the histograms
// and the evaluation ask for them again every time results arrive, over up to 100,000+ rows.

type Entry<T> = {result: RowResult | undefined, value: T};
type Caches = {cells: Array<Entry<CellValue[]>>, answers: Array<Entry<NormalizedAnswer[] | null>>, raw: Array<Entry<NormalizedAnswer[] | null>>};

const caches = new WeakMap<ScoringJob, Caches>();

function cached<T>(job: ScoringJob, kind: keyof Caches, rowIndex: number, compute: (result: RowResult | undefined) => T): T {
    let all = caches.get(job);
    if (all === undefined) caches.set(job, all = {cells: [], answers: [], raw: []});
    const list = all[kind] as Array<Entry<T>>;
    const result = job.results[rowIndex];
    const entry = list[rowIndex];
    if (entry !== undefined && entry.result === result) return entry.value;
    const value = compute(result);
    list[rowIndex] = {result, value};
    return value;
}

/** The row's answer cells (job.layout.columns); all empty until it has a result. */
export function resultCellsOf(job: ScoringJob, rowIndex: number): CellValue[] {
    return cached(job, "cells", rowIndex, (result) => job.layout.cells(result));
}

/** The row's answers as the results show them (calibrated where the job's set carried a calibration). */
export function answersOf(job: ScoringJob, rowIndex: number): NormalizedAnswer[] | null {
    return cached(job, "answers", rowIndex, (result) => job.layout.answers(result));
}

/** The row's answers exactly as the server sent them (for fitting a calibration). */
export function rawAnswersOf(job: ScoringJob, rowIndex: number): NormalizedAnswer[] | null {
    return cached(job, "raw", rowIndex, (result) => result?.ok && result.response ? readAnswers(job.spec.questionSet.format, job.infos, result.response) : null);
}
