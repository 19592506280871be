import assert from "node:assert/strict";
import {after, before, test} from "node:test";
import {getLlama, LlamaLogLevel, type Llama} from "node-llama-cpp";
import {ensureTinyGguf} from "../../test/fixtures/gguf/ensureTinyGguf.ts";
import {detectGpu, formatGpuReport} from "./detectGpu.ts";
import {describeModelLoadPlan, planModelLoad} from "./planModelLoad.ts";

const modelPath = await ensureTinyGguf();
let llama: Llama;
before(async () => {
    llama = await getLlama({gpu: false, build: "never", maxThreads: 1, logLevel: LlamaLogLevel.error});
});
after(() => llama?.dispose());

test("the plan: context from the file (capped), an estimate before loading, and it fits a tiny model", async () => {
    const plan = await planModelLoad(llama, {modelPath, gpuLayers: "auto", parallel: 2, contextCap: 1024});
    assert.equal(plan.trainContextSize, 4096);
    assert.equal(plan.contextSize, 1024, "the training context is capped");
    assert.equal(plan.totalLayers, 3, "2 blocks and the output layer");
    assert.equal(plan.gpuLayers, 0, "the CPU offloads nothing");
    assert.ok(plan.estimate != null && plan.estimate.modelRamBytes > 0 && plan.estimate.contextRamBytes > 0);
    assert.deepEqual(plan.warnings, []);
    // A bigger context for more sequences costs more.
    const bigger = await planModelLoad(llama, {modelPath, gpuLayers: "auto", contextSize: 4096, parallel: 4, contextCap: 1024});
    assert.equal(bigger.contextSize, 4096, "an explicit context size wins over the cap");
    assert.ok(bigger.estimate!.contextRamBytes > plan.estimate.contextRamBytes);
    const [line] = describeModelLoadPlan(bigger, false);
    assert.match(line, /^memory: about [\d.]+ MiB RAM \(model [\d.]+ KiB, context 4096 x 4 [\d.]+ MiB\); CPU; [\d.]+ [GM]iB RAM free$/);
});

test("the GPU report explains every backend it cannot use and picks the first usable one", async () => {
    const report = await detectGpu();
    assert.equal(report.platform, process.platform);
    assert.ok(report.backends.length > 0 || process.platform === "darwin");
    for (const backend of report.backends)
        assert.ok(backend.usable ? backend.reason == null : (backend.reason ?? "").length > 10, JSON.stringify(backend));
    assert.equal(report.best, report.backends.find((backend) => backend.usable)?.type ?? false);
    const text = formatGpuReport(report);
    assert.match(text, report.best === false ? /--gpu auto will use the CPU$/ : new RegExp(`--gpu auto will use ${report.best}`));
});
