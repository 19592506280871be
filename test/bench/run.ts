import os from "node:os";
import {parseArgs} from "node:util";
import {benchModelPath} from "./benchModelPath.ts";
import {httpVsInProcess} from "./httpVsInProcess.ts";

// `npm run bench [-- --threads N --requests N]`: prints ratios against baselines measured in the same run.
const {values} = parseArgs({options: {threads: {type: "string"}, requests: {type: "string", default: "40"}}});
const threads = Number(values.threads ?? Math.max(1, Math.min(2, os.availableParallelism())));
const model = await benchModelPath();
console.log(`model: ${model.name} (${model.path}), threads: ${threads}, CPU`);

console.log("\n== HTTP server (b) vs in-process node-llama-cpp (a), 64-token completions ==");
await httpVsInProcess(model.path, threads, Number(values.requests));
