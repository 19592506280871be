import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {ExperimentRunner, type ExperimentRunSpec, type StoredCell} from "../../client/experiments/ExperimentRunner.ts";
import type {Dataset, ExperimentSpec} from "../../client/experiments/types.ts";
import {JobRunner, type JobSpec, type RowBatch} from "../../client/scoring/index.ts";
import {SqliteResultStore} from "../../client/scoring/node/SqliteResultStore.ts";
import {SvcClient} from "../../client/sdk/index.ts";
import {startServer} from "../../native/startServer.ts";
import {benchQuestionSet, benchRows} from "./scoringBench.ts";

export type ExperimentBenchResult = {rows: number, scoringRowsPerSecond: number, experimentRowsPerSecond: number, ratio: number};

/**
 * An experiment's rows/s against plain scoring of the same rows, in the same run on one local server: the same
 * question set and template as a one-variant decision experiment, and as a scoring job, both through the one runner
 * with a synced SQLite write per result. Rounds alternate the two and the best round of each counts, so neither
 * gets the warmer server. The goal is a ratio of 0.95 or more: an experiment's own work (cells, checks, its store
 * records) costs next to nothing beside the requests.
 */
export async function experimentBench(modelPath: string, threads: number, options: {rows?: number, rounds?: number, concurrency?: number} = {}): Promise<ExperimentBenchResult> {
    const rows = options.rows ?? 100;
    const rounds = options.rounds ?? 3;
    const concurrency = options.concurrency ?? 4;
    const server = await startServer({modelPath, threads, gpu: "off", port: 0, parallel: 1, contextSize: 2048});
    const dir = await mkdtemp(path.join(tmpdir(), "svc-experiment-bench-"));
    try {
        const table = benchRows(rows);
        const client = new SvcClient({baseUrl: server.url});
        await client.decisions({model: "svc-1-decision", input: "Review: warm-up", questions: benchQuestionSet.questions});
        const template = "Review {{id}}: {{text}}";
        const spec: JobSpec = {questionSet: benchQuestionSet, input: {kind: "template", template}, columns: ["id", "text"]};
        const dataset: Dataset = {id: "bench", name: "bench", columns: ["id", "text"], columnTypes: ["number", "string"], rows: table, labelColumns: [], inputColumns: ["id", "text"], createdAt: 0, updatedAt: 0};
        const experiment: ExperimentSpec = {
            format: "svc-experiment", version: 1, id: "bench", name: "bench", dataset, sample: {kind: "all"}, checks: [], seed: 1, createdAt: 0, concurrency,
            variants: [{name: "A", connection: {baseUrl: server.url}, version: {itemId: "q", itemName: "q", version: 1, note: "", createdAt: 0, prompt: {kind: "decision", questionSet: benchQuestionSet, input: {kind: "template", template}}}}]
        };
        const timed = async (run: () => Promise<{status: string, fatalError: string | null}>) => {
            const started = performance.now();
            const final = await run();
            if (final.status !== "completed") throw new Error(`experiment bench: ${final.status}: ${final.fatalError}`);
            return rows / ((performance.now() - started) / 1000);
        };
        let scoring = 0, experimentRate = 0;
        for (let round = 0; round < rounds; round++) {
            const scoringStore = new SqliteResultStore(path.join(dir, `scoring-${round}.sqlite`));
            const batches = async function* (): AsyncGenerator<RowBatch> {
                yield {start: 0, rows: table};
            };
            scoring = Math.max(scoring, await timed(() => new JobRunner({jobId: "bench", spec, rows: batches, totalRows: rows, client, store: scoringStore, concurrency}).run()));
            await scoringStore.close();
            const experimentStore = new SqliteResultStore<StoredCell, ExperimentRunSpec>(path.join(dir, `experiment-${round}.sqlite`));
            experimentRate = Math.max(experimentRate, await timed(() => new ExperimentRunner({spec: experiment, dataset, store: experimentStore, clientFor: () => client, concurrency}).run()));
            await experimentStore.close();
        }
        const result = {rows, scoringRowsPerSecond: scoring, experimentRowsPerSecond: experimentRate, ratio: experimentRate / scoring};
        console.log(`scoring job:  ${rows} rows x ${benchQuestionSet.questions.length} questions, ${scoring.toFixed(1)} rows/s (best of ${rounds})`);
        console.log(`experiment:   the same rows as a one-variant decision experiment, ${experimentRate.toFixed(1)} rows/s (best of ${rounds})`);
        console.log(`ratio ${result.ratio.toFixed(3)} (goal >= 0.95; concurrency ${concurrency}, ${threads} threads)`);
        return result;
    } finally {
        await server.close();
        await rm(dir, {recursive: true, force: true});
    }
}
