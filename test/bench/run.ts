import {parseArgs} from "node:util";
import {benchModelPath} from "./benchModelPath.ts";
import {decisionsBench} from "./decisionsBench.ts";
import {httpVsInProcess} from "./httpVsInProcess.ts";
import {logprobsBench} from "./logprobsBench.ts";
import {meteringOverhead} from "./meteringOverhead.ts";
import {scoringBench} from "./scoringBench.ts";
import {threadSweep} from "./threadSweep.ts";

// `npm run bench [-- --threads N --requests N --rounds N]`: prints ratios against baselines measured in the same run.
const {values} = parseArgs({options: {threads: {type: "string"}, requests: {type: "string", default: "24"}, rounds: {type: "string", default: "11"}}});
// One thread by default: on 2 cores llama.cpp's 2-thread pool stalls whenever anything else runs.
const threads = Number(values.threads ?? 1);
const model = await benchModelPath();
console.log(`model: ${model.name} (${model.path}), threads: ${threads}, CPU`);

console.log("\n== HTTP server (b) vs in-process node-llama-cpp (a), 64-token completions ==");
await httpVsInProcess(model.path, threads, Number(values.requests), Number(values.rounds));

console.log("\n== Token probabilities: 64-token completions without and with logprobs (and echo) ==");
await logprobsBench(model.path, threads, Number(values.requests), Number(values.rounds));

console.log("\n== Team server: workspace mode on vs off (metering overhead), same requests ==");
await meteringOverhead(model.path, threads, Number(values.requests) * 4, Number(values.rounds));

console.log("\n== Decision endpoints: one 64-question request vs 64 one-question requests ==");
await decisionsBench(model.path, threads);

console.log("\n== Spreadsheet scoring: 1,000 rows x 3 questions ==");
await scoringBench(model.path, threads);

console.log("\n== Thread sweep: generation tokens/s by thread count, 128-token completions, ratio to 1 thread ==");
await threadSweep();
