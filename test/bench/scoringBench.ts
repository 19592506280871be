import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {JobRunner, type JobSpec, type RowBatch} from "../../client/scoring/index.ts";
import {SqliteResultStore} from "../../client/scoring/node/SqliteResultStore.ts";
import {SvcClient} from "../../client/sdk/index.ts";
import {startServer} from "../../native/startServer.ts";

export type ScoringBenchOptions = {
    /** Rows scored; default 1000. */
    rows?: number,
    /** Requests the job keeps in flight; default 4. */
    concurrency?: number,
    /** Server sequences; default 1. */
    parallel?: number
};

export type ScoringBenchResult = {rows: number, questions: number, seconds: number, rowsPerSecond: number, failed: number};

/** The bench's three questions (yes/no, choice, score), shared with the experiment bench. */
export const benchQuestionSet = {
    format: "decisions" as const,
    questions: [
        {type: "predicate" as const, name: "positive", instructions: "Is the review positive?"},
        {type: "choice" as const, name: "topic", instructions: "What is the review about?", choices: [{value: "price"}, {value: "quality"}, {value: "delivery"}]},
        {type: "score" as const, name: "stars", instructions: "How many stars would the reviewer give?", levels: [{label: "one"}, {label: "three"}, {label: "five"}]}
    ]
};
const words = ["cheap", "sturdy", "late", "broken", "lovely", "small", "fast", "noisy"];

/** `rows` short reviews, [id, text], each different. */
export function benchRows(rows: number): Array<[number, string]> {
    return Array.from({length: rows}, (_, index) => [index, `The ${words[index % 8]} ${words[(index * 3 + 1) % 8]} item arrived on day ${index % 31}.`]);
}

/**
 * Issue "Decision studio" benchmark: a scoring job of `rows` rows x 3 questions (yes/no, choice, score) through
 * the whole pipeline (JobRunner, SvcClient over HTTP, SQLite store with a synced write per row) against the
 * local engine with explicit threads. Prints and returns rows/s.
 */
export async function scoringBench(modelPath: string, threads: number, options: ScoringBenchOptions = {}): Promise<ScoringBenchResult> {
    const rows = options.rows ?? 1000;
    const concurrency = options.concurrency ?? 4;
    const parallel = options.parallel ?? 1;
    const server = await startServer({modelPath, threads, gpu: "off", port: 0, parallel, contextSize: 2048});
    const dir = await mkdtemp(path.join(tmpdir(), "svc-scoring-bench-"));
    const store = new SqliteResultStore(path.join(dir, "bench.sqlite"));
    try {
        const table = benchRows(rows);
        const spec: JobSpec = {questionSet: benchQuestionSet, input: {kind: "template", template: "Review {{id}}: {{text}}"}, columns: ["id", "text"]};
        const client = new SvcClient({baseUrl: server.url});
        // One request first, so model warm-up is not in the timing.
        await client.decisions({model: "svc-1-decision", input: "Review: warm-up", questions: benchQuestionSet.questions});
        const batches = async function* (): AsyncGenerator<RowBatch> {
            for (let start = 0; start < rows; start += 500) yield {start, rows: table.slice(start, start + 500)};
        };
        const started = performance.now();
        const final = await new JobRunner({jobId: "bench", spec, rows: batches, totalRows: rows, client, store, concurrency}).run();
        const seconds = (performance.now() - started) / 1000;
        if (final.status !== "completed") throw new Error(`scoring bench: job ${final.status}: ${final.fatalError}`);
        const result = {rows, questions: benchQuestionSet.questions.length, seconds, rowsPerSecond: rows / seconds, failed: final.failed};
        console.log(`scoring job: ${rows} rows x ${result.questions} questions in ${seconds.toFixed(1)} s = ${result.rowsPerSecond.toFixed(1)} rows/s ` +
            `(concurrency ${concurrency}, ${parallel} server sequence${parallel === 1 ? "" : "s"}, ${threads} threads, ${final.failed} row errors)`);
        return result;
    } finally {
        await store.close();
        await server.close();
        await rm(dir, {recursive: true, force: true});
    }
}
