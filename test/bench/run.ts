import {parseArgs} from "node:util";
import {benchModelPath} from "./benchModelPath.ts";
import {decisionsBench} from "./decisionsBench.ts";
import {httpVsInProcess} from "./httpVsInProcess.ts";
import {logprobsBench} from "./logprobsBench.ts";
import {meteringOverhead} from "./meteringOverhead.ts";
import {frontsBench} from "./frontsBench.ts";
import {scoringBench} from "./scoringBench.ts";
import {experimentBench} from "./experimentBench.ts";
import {upstreamBench} from "./upstreamBench.ts";
import {experimentUiBench} from "./experimentUiBench.ts";
import {appDataBench} from "./appDataBench.ts";
import {otherShapesBench, summaryBench} from "./experimentSummary.ts";
import {threadSweep} from "./threadSweep.ts";
import {decisionAnchors} from "./decisionAnchors.ts";
import {llamaBenchRates, llamaServerBench} from "./llamaServerBench.ts";
import {ensureLlamaCpp} from "../support/llamaCpp.ts";
import {gpuArgument} from "../../native/build/buildEngine.ts";
import {ensureShapedGguf, modelShapes} from "../fixtures/gguf/writeShapedGguf.ts";

// `npm run bench [-- --threads N --requests N --rounds N --only a,b --gpu cuda]`: prints ratios against baselines measured
// in the same run. Sections: http, logprobs, metering, fronts, decisions, scoring, experiment, experiment-ui, app-data, summary, upstream, threads, llama (against llama.cpp's own
// server and llama-bench, built once by `npm run bench:llama-server`, about 15 minutes on 2 cores, then cached). With
// `--gpu cuda` the llama section runs both sides with every layer on the GPU (`npm run bench:llama-server -- --gpu cuda`
// and `npm run build:engine -- --gpu cuda` build them); the other sections stay on CPU.
const {values} = parseArgs({options: {threads: {type: "string"}, requests: {type: "string", default: "24"}, rounds: {type: "string", default: "11"}, only: {type: "string"},
    gpu: {type: "string", default: "off"}}});
const gpu = gpuArgument(["--gpu", values.gpu!]);
const only = values.only?.split(",");
const wanted = (section: string) => only == null || only.includes(section);
// One thread by default: on 2 cores llama.cpp's 2-thread pool stalls whenever anything else runs.
const threads = Number(values.threads ?? 1);
const model = await benchModelPath();
console.log(`model: ${model.name} (${model.path}), threads: ${threads}, ${gpu === false ? "CPU" : `${gpu} for the llama section, CPU for the rest`}`);

const sections: Array<[string, string, () => Promise<void>]> = [
    ["http", "HTTP server (b) vs in-process node-llama-cpp (a), 64-token completions",
        () => httpVsInProcess(model.path, threads, Number(values.requests), Number(values.rounds))],
    ["llama", "Against llama.cpp's own llama-server and llama-bench (same source, model and threads)", async () => {
        const tools = await ensureLlamaCpp(undefined, gpu);
        const shaped = {name: "random qwen3-0.6b shape, Q8_0", path: ensureShapedGguf(modelShapes["qwen3-0.6b"])};
        for (const [bench, options] of [[model, {rounds: Number(values.rounds), maxTokens: 64, requests: Number(values.requests)}],
            [shaped, {rounds: 3, maxTokens: 32, requests: 4}]] as const) {
            const rates = await llamaBenchRates(tools, bench.path, threads);
            console.log(`\n${bench.name}: llama-bench ${rates.pp.toFixed(0)} tok/s prompt processing (2,000 tokens), ${rates.tg!.toFixed(1)} tok/s generation`);
            await llamaServerBench(tools, bench, threads, options);
        }
        console.log("\nDecisions against node-llama-cpp's LlamaDecisionContext and the prefill bound:");
        await decisionAnchors(model.path, threads, {tools});
        // A realistic shape, where the weights and not the attention over the document dominate a round: 8 questions, once.
        console.log(`\n${shaped.name}, decisions against the prefill bound:`);
        await decisionAnchors(shaped.path, threads, {tools, questionCount: 8, rounds: 1, withNodeLlamaCpp: false});
    }],
    ["logprobs", "Token probabilities: 64-token completions without and with logprobs (and echo)",
        () => logprobsBench(model.path, threads, Number(values.requests), Number(values.rounds))],
    ["metering", "Team server: workspace mode on vs off (metering overhead), same requests",
        () => meteringOverhead(model.path, threads, Number(values.requests) * 4, Number(values.rounds))],
    ["fronts", "Team server on PostgreSQL: the gate's cost with no store, SQLite, PostgreSQL; three fronts vs one on one upstream",
        () => frontsBench(model.path)],
    ["decisions", "Decision endpoints: one 64-question request vs 64 one-question requests", () => decisionsBench(model.path, threads)],
    ["scoring", "Spreadsheet scoring: 1,000 rows x 3 questions", async () => void await scoringBench(model.path, threads)],
    ["experiment", "Experiment vs scoring: the same 100 rows x 3 questions as a one-variant experiment and as a scoring job",
        async () => void await experimentBench(model.path, threads)],
    ["experiment-ui", "Experiments screen in Chromium: the longest main-thread task while cells stream into a 10,000-row experiment (goal < 100 ms)", async () => {
        const result = await experimentUiBench();
        console.log(`${result.cellsSeen} cells in ${result.seconds} s over ${result.rows.toLocaleString("en-US")} rows: longest task ${result.longestTaskMs} ms, ${result.tasksOver50Ms} tasks over 50 ms`
            + ` (goal < 100 ms; long tasks count wall time, so a busy machine lengthens them)`);
    }],
    ["app-data", "The app's data at scale in Chromium: start-up with 20 datasets of 100,000 rows vs empty, opening and scrolling one, row edits", async () => {
        const result = await appDataBench();
        console.log(`start-up: ${result.emptyStartMs} ms empty, ${result.fullStartMs} ms with ${result.datasets} x ${result.rowsEach.toLocaleString("en-US")} rows: ` +
            `${(result.fullStartMs / result.emptyStartMs).toFixed(2)}x (goal <= 1.2x)`);
        console.log(`opening one: first rows in ${result.firstRowsMs} ms (goal < 1,000 ms), all ${result.rowsEach.toLocaleString("en-US")} read in ${result.allRowsMs} ms; ` +
            `scrolling: longest task ${result.longestScrollTaskMs} ms, ${result.scrollTasksOver50Ms} over 50 ms (goal 0)`);
        console.log(`gateway peak memory ${result.gatewayPeakMb} MB (goal < 300 MB); one row edit committed: p50 ${result.editP50Ms} ms, p95 ${result.editP95Ms} ms over ${result.edits} edits (goal p95 < 10 ms)`);
    }],
    ["summary", "Experiment summary: 100,000 rows x 3 variants, 2,000 bootstrap resamples: 1 question and chat with a grader (goal < 2 s; with clusters of 20 rows < 4 s), then 5 questions for scale",
        async () => {
            otherShapesBench();
            await summaryBench();
        }],
    ["upstream", "Decisions through `serve --upstream` (llama-server) vs the local engine, same model and threads", () => upstreamBench(model, threads)],
    ["threads", "Thread sweep: generation tokens/s by thread count, 128-token completions, ratio to 1 thread", () => threadSweep()]
];
for (const [name, title, run] of sections) {
    if (!wanted(name)) continue;
    console.log(`\n== ${title} ==`);
    await run();
}
