import {stableStringify} from "../../protocol/decisions/stableStringify.ts";
import {CachedCalls, type ResponseCache} from "../scoring/responseCache.ts";
import {runSettings, TaskRunner, type RunSettings, type WorkUnit} from "../scoring/TaskRunner.ts";
import type {JobProgress, JobStatus, ResultStore} from "../scoring/types.ts";
import {compileCellTask, type CellTask, type ConnectionCaller} from "./cellTasks.ts";
import type {CellResult, ConnectionRef, Dataset, ExperimentSpec, Variant} from "./types.ts";
import {experimentCells, repeatRequest, repeatsOf} from "./repeats.ts";

/**
 * One cell as a ResultStore keeps it: `rowIndex` is the store's key (cellKey: the dataset row times the number of
 * variants, plus the variant, times the repeats plus the repeat), `cell` the whole result. The app's experiment store and SQLite keep this shape.
 */
export type StoredCell = {rowIndex: number, ok: boolean, completedAt: number, cell: CellResult};

/** What an experiment's job record holds: which experiment, and the fingerprint a resumed run must match. */
export type ExperimentRunSpec = {kind: "experiment", experimentId: string, name: string, variants: number, fingerprint: string};

export type ExperimentStore = ResultStore<StoredCell, ExperimentRunSpec>;

/** Requests in flight at once across an experiment's variants when its file sets none. */
export const defaultExperimentConcurrency = 4;

/**
 * The store key of (dataset row, variant, repeat): row-major, so cells of one row sit together, each variant's
 * repeats in turn. Without repeats (1) it is the row times the number of variants plus the variant.
 */
export function cellKey(rowIndex: number, variant: number, variantCount: number, repeat = 0, repeats = 1): number {
    return (rowIndex * variantCount + variant) * repeats + repeat;
}

/** The store key of a cell of `spec`'s run: its row, variant and repeat (cellKey). */
export function storedCellKey(cell: Pick<CellResult, "rowIndex" | "variant" | "repeat">, spec: Pick<ExperimentSpec, "variants" | "repeats">): number {
    return cellKey(cell.rowIndex, cell.variant, spec.variants.length, cell.repeat ?? 0, repeatsOf(spec));
}

/**
 * Variants that must run one after another: the app's local engine holds one model at a time, so variants on the
 * `local` profile with different models form groups, run in turn, each after `beforeGroup` loaded its model.
 * Variants on other connections (a server URL, a remote profile) join the first group and interleave with it.
 */
export type ModelGroup = {key: string, connection: ConnectionRef, model: string | undefined, variants: number[]};

/** Default grouping: `local:<model>` for variants on the local profile, null (no constraint) for the rest. */
export function localModelGroup(variant: Variant): string | null {
    return "profile" in variant.connection && variant.connection.profile === "local" ? `local:${variant.model ?? ""}` : null;
}

/** A variant's cells: with a result (earlier runs included), stored with an error by this run, in the sample. */
export type VariantProgress = {done: number, failed: number, total: number};

/** A run's progress in cells (`totalRows` is the number of cells), per variant, and the model group running. */
export type ExperimentProgress = JobProgress & {variants: VariantProgress[], group: ModelGroup | null};

export type ExperimentRunnerOptions = RunSettings & {
    spec: ExperimentSpec,
    /** The dataset the spec names, read (experimentFile.ts loadDataset in Node; the app's saved dataset). */
    dataset: Dataset,
    /** Dataset row indexes to run, in order (dataset.ts sampleRows); default every row. */
    rows?: readonly number[],
    /** The store's job id; default the spec's id. A run with another fingerprint under the same id is refused. */
    jobId?: string,
    store: ExperimentStore,
    /** A caller for a connection: SvcClient for a base URL (CLI), the gateway's client for a profile (app). */
    clientFor(connection: ConnectionRef): ConnectionCaller,
    /**
     * Answers kept by what was sent (responseCache.ts): a cell whose request (and graders' requests) it holds is
     * answered from it, marked `cached`, and nothing is sent; a cell that succeeded keeps its answers there once
     * stored. Without it every cell is sent.
     */
    cache?: ResponseCache,
    /** Which variants must run apart (see ModelGroup); default localModelGroup. */
    groupOf?: (variant: Variant) => string | null,
    /** Called before a group's first cell is sent, once every cell of the previous group has ended. */
    beforeGroup?: (group: ModelGroup, signal: AbortSignal) => Promise<void>,
    /** Progress in cells (concurrency: across variants; default spec.concurrency, else 4). */
    onProgress?: (progress: ExperimentProgress) => void,
    /** Each cell once it is stored (the runner keeps none: read them back from the store). */
    onResult?: (cell: CellResult) => void
};

/** The job in the store was started for other variants, checks or data. */
export class ExperimentMismatchError extends Error {
    public constructor(jobId: string) {
        super(`experiment run ${jobId} was started with other variants, checks or dataset rows; start a new run instead of resuming this one`);
        this.name = "ExperimentMismatchError";
    }
}

/**
 * What must not change for a run to be resumed: what each variant sends (prompt, connection, model, params), the
 * checks, and the dataset's columns, their roles (which the model sees) and rows. Names, notes, prices, the sample, the concurrency and a question set's
 * name, description and calibration (applied to answers, never sent) may change.
 */
export function experimentFingerprint(spec: ExperimentSpec, dataset: Dataset): string {
    return stableStringify({
        // Absent without repeats, so a run kept before repeats existed still resumes.
        ...(repeatsOf(spec) > 1 ? {repeats: repeatsOf(spec)} : {}),
        variants: spec.variants.map((variant) => ({prompt: sentPrompt(variant.version.prompt), connection: variant.connection, model: variant.model ?? null, params: variant.params ?? null})),
        checks: spec.checks,
        columns: dataset.columns,
        labelColumns: dataset.labelColumns,
        inputColumns: dataset.inputColumns,
        rows: textHash(JSON.stringify(dataset.rows))
    });
}

/** What of a prompt reaches the server: a question set's name, description and calibration do not. */
function sentPrompt(prompt: Variant["version"]["prompt"]): unknown {
    if (prompt.kind === "chat") return prompt;
    const {format, questions, x_svc} = prompt.questionSet;
    return {kind: prompt.kind, questionSet: {format, questions, x_svc: x_svc ?? null}, input: prompt.input};
}

type Cell = WorkUnit & {rowIndex: number, variant: number, repeat: number, request?: Record<string, unknown>};

/**
 * Runs an experiment's cells (sample rows × variants) on the one TaskRunner scoring uses: durable in the store
 * (a finished cell is never sent again, a crash loses none), paced by Retry-After, pausable and resumable. Cells
 * go row by row, each row's variants in turn, so every connection stays busy and comparisons fill in evenly;
 * model groups (see ModelGroup) run one after the other. Nothing but counts is held in memory.
 */
export class ExperimentRunner {
    public readonly jobId: string;
    private readonly runner: TaskRunner<Cell, StoredCell, ExperimentRunSpec>;
    private readonly tasks: CellTask[];
    private readonly groups: ModelGroup[];
    private readonly perVariant: VariantProgress[];
    private currentGroup: ModelGroup | null = null;
    /** Answers being put in the response cache; run() ends once they are. */
    private readonly keeping = new Set<Promise<void>>();

    public constructor(options: ExperimentRunnerOptions) {
        const {spec, dataset} = options;
        const variantCount = spec.variants.length;
        const repeats = repeatsOf(spec);
        const rows = options.rows ?? dataset.rows.map((_, index) => index);
        this.jobId = options.jobId ?? spec.id;
        const fingerprint = experimentFingerprint(spec, dataset);
        const inSample = new Set(rows);
        const callers = new Map<string, ConnectionCaller>();
        const clientFor = (connection: ConnectionRef) => {
            const key = stableStringify(connection);
            let caller = callers.get(key);
            if (caller === undefined) callers.set(key, caller = options.clientFor(connection));
            return caller;
        };
        this.tasks = spec.variants.map((variant, index) => compileCellTask(variant, index, dataset, spec.checks, clientFor));
        this.groups = modelGroups(spec.variants, options.groupOf ?? localModelGroup);
        this.perVariant = spec.variants.map(() => ({done: 0, failed: 0, total: rows.length * repeats}));
        const onProgress = options.onProgress;
        // A stored cell's answers go to the cache once it is stored, so the cache never holds a cell the store lacks.
        const toKeep = new WeakMap<StoredCell, CachedCalls>();
        this.runner = new TaskRunner<Cell, StoredCell, ExperimentRunSpec>({
            jobId: this.jobId,
            spec: {kind: "experiment", experimentId: spec.id, name: spec.name, variants: variantCount, fingerprint},
            store: options.store,
            checkResumable: (stored) => {
                if (stored.fingerprint !== fingerprint || stored.variants !== variantCount) throw new ExperimentMismatchError(this.jobId);
            },
            units: (done) => this.cells(rows, done, variantCount, repeats),
            totalUnits: experimentCells(spec, rows.length),
            inScope: (key) => inSample.has(Math.floor(key / (variantCount * repeats))),
            perform: async (unit, context) => {
                const task = this.tasks[unit.variant];
                const row = dataset.rows[unit.rowIndex];
                unit.request = repeatRequest(task.build(row), endpointOf(spec.variants[unit.variant]), unit.repeat, repeats, spec.seed);
                const calls = options.cache === undefined ? undefined : new CachedCalls(options.cache);
                const cell: CellResult = {rowIndex: unit.rowIndex, variant: unit.variant, ...repeatOf(unit), ...await task.send(unit.request, row, context, calls, unit.repeat)};
                if (calls?.answeredFromCache) cell.cached = true;
                const stored: StoredCell = {rowIndex: unit.key, ok: cell.ok, completedAt: cell.completedAt, cell};
                if (calls !== undefined && cell.ok) toKeep.set(stored, calls);
                return stored;
            },
            refused: (unit, error, attempts, latencyMs) => {
                const cell: CellResult = {rowIndex: unit.rowIndex, variant: unit.variant, ...repeatOf(unit), ok: false, request: unit.request ?? {}, error, latencyMs, attempts, completedAt: Date.now()};
                return {rowIndex: unit.key, ok: false, completedAt: cell.completedAt, cell};
            },
            beforeGroup: async (key, signal) => {
                const group = this.groups.find((item) => item.key === key) ?? null;
                this.currentGroup = group;
                if (group !== null && options.beforeGroup !== undefined) await options.beforeGroup(group, signal);
            },
            ...runSettings(options),
            concurrency: options.concurrency ?? spec.concurrency ?? defaultExperimentConcurrency,
            failFastHint: "check the variants' prompts, parameters and connections",
            unitName: "cells",
            onProgress: onProgress === undefined ? undefined : (progress) => onProgress(this.extend(progress)),
            onResult: (stored) => {
                const keeping = toKeep.get(stored)?.keep();
                if (keeping !== undefined) {
                    this.keeping.add(keeping);
                    void keeping.finally(() => this.keeping.delete(keeping));
                }
                const counts = this.perVariant[stored.cell.variant];
                counts.done++;
                if (!stored.ok) counts.failed++;
                options.onResult?.(stored.cell);
            }
        });
    }

    public get status(): JobStatus | "idle" {
        return this.runner.status;
    }

    public progress(): ExperimentProgress {
        return this.extend(this.runner.progress());
    }

    public pause() {
        this.runner.pause();
    }

    public resume() {
        this.runner.resume();
    }

    public cancel() {
        this.runner.cancel("The experiment was cancelled.");
    }

    /** Runs every cell without a result (completed, cancelled or failed) and returns the final progress. */
    public async run(): Promise<ExperimentProgress> {
        const progress = await this.runner.run();
        await Promise.all(this.keeping);
        return this.extend(progress);
    }

    private extend(progress: JobProgress): ExperimentProgress {
        return {...progress, variants: this.perVariant.map((counts) => ({...counts})), group: this.currentGroup};
    }

    /** Cells without a result: group by group, row by row, each row's variants of the group in turn. */
    private async *cells(rows: readonly number[], done: ReadonlySet<number>, variantCount: number, repeats: number): AsyncGenerator<Cell, void, undefined> {
        // `done` holds the cells of the sample's rows only (the runner's inScope).
        for (const key of done) this.perVariant[Math.floor(key / repeats) % variantCount].done++;
        const plan = this.groups.length > 0 ? this.groups : [{key: null, variants: Array.from({length: variantCount}, (_, index) => index)}];
        for (const group of plan)
            for (const rowIndex of rows)
                for (const variant of group.variants)
                    for (let repeat = 0; repeat < repeats; repeat++) {
                        const key = cellKey(rowIndex, variant, variantCount, repeat, repeats);
                        if (!done.has(key)) yield {key, group: group.key, rowIndex, variant, repeat};
                    }
    }
}

/** Which endpoint a variant's cells are sent to, for the seed of its repeats. */
function endpointOf(variant: Variant): "chat" | "responses" | "decision" {
    const prompt = variant.version.prompt;
    return prompt.kind === "decision" ? "decision" : prompt.endpoint;
}

/** A cell's `repeat` field: set for repeats after the first only, so an unrepeated cell reads as before. */
function repeatOf(unit: Cell): {repeat?: number} {
    return unit.repeat === 0 ? {} : {repeat: unit.repeat};
}

/** Variants split into groups that run in turn (see ModelGroup); none when no variant needs one. */
export function modelGroups(variants: readonly Variant[], groupOf: (variant: Variant) => string | null): ModelGroup[] {
    const groups: ModelGroup[] = [];
    const free: number[] = [];
    variants.forEach((variant, index) => {
        const key = groupOf(variant);
        if (key === null) return free.push(index);
        const group = groups.find((item) => item.key === key);
        if (group === undefined) groups.push({key, connection: variant.connection, model: variant.model, variants: [index]});
        else group.variants.push(index);
    });
    if (groups.length === 0) return [];
    groups[0].variants = [...groups[0].variants, ...free].sort((a, b) => a - b);
    return groups;
}

/** Two 32-bit FNV-1a hashes (two offset bases) and the length of a text: browser-safe and synchronous. */
function textHash(text: string): string {
    let first = 0x811c9dc5, second = 0x050c5d1f;
    for (let index = 0; index < text.length; index++) {
        const code = text.charCodeAt(index);
        first = Math.imul(first ^ code, 0x01000193);
        second = Math.imul(second ^ code, 0x01000193);
    }
    return `${(first >>> 0).toString(16)}${(second >>> 0).toString(16)}:${text.length}`;
}
