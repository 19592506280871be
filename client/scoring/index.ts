// Public entry of the scoring toolkit, for browsers and Node: question sets, tables (CSV/XLSX) in, the durable job
// runner, result columns out, evaluation against labels and calibration. Runtime-specific parts have their own
// entries: `node/SqliteResultStore.ts`, `node/SqliteResponseCache.ts`, `node/spreadsheetFiles.ts`.
export * from "./types.ts";
export * from "./questions.ts";
export * from "./table.ts";
export * from "./csv.ts";
export * from "./xlsx.ts";
export * from "./requests.ts";
export * from "./results.ts";
export * from "./JobRunner.ts";
export * from "./TaskRunner.ts";
export * from "./askQuestions.ts";
export * from "./responseCache.ts";
export * from "./evaluation.ts";
export * from "./metrics.ts";
export * from "./calibration.ts";
export * from "./calibrationCheck.ts";
export * from "./scoreLevels.ts";
export * from "./labelColumns.ts";
export * from "./modelColumns.ts";
