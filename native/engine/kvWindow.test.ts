import {test} from "node:test";
import assert from "node:assert/strict";
import {LlamaLogLevel} from "node-llama-cpp";
import {useTinyModel} from "../../test/support/tinyModel.ts";

// patches/llama.cpp+*.diff pads the attention's window of KV cells to a multiple of 32 where the cache is in
// CPU memory, not 256: without flash attention the CPU computes K*Q over every cell of the window, so a short context
// paid for 256 (stories260K: 4,000 -> 6,000 tok/s with one sequence, 5,000 -> 8,650 with four, docs/performance.md, "The engine build").
// llama.cpp reports the window it chose in its debug log when LLAMA_KV_CACHE_DEBUG is set (a line the diff adds);
// without the diff there is no such line, and upstream's window would be 256.
process.env.LLAMA_KV_CACHE_DEBUG = "1";
const tiny = useTinyModel();

/** Until `done`, or 10 s: llama.cpp's log lines reach JavaScript through the event loop, after the decode has returned. */
async function logged(done: () => boolean): Promise<void> {
    for (const started = Date.now(); !done() && Date.now() - started < 10_000;) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function windowsFor(tokenCounts: number[]): Promise<number[]> {
    const windows: number[] = [];
    tiny.llama.logger = (_level, message) => {
        const match = /get_n_kv: n_kv = (\d+)/.exec(message);
        if (match != null) windows.push(Number(match[1]));
    };
    tiny.llama.logLevel = LlamaLogLevel.debug;
    const context = await tiny.model.createContext({contextSize: 1024, threads: {ideal: 1, min: 1}, flashAttention: false});
    try {
        const sequence = context.getSequence();
        let text = "once upon a time";
        for (const [step, count] of tokenCounts.entries()) {
            while (tiny.model.tokenize(text).length < count) text += " there was a little girl who liked to play";
            const tokens = tiny.model.tokenize(text).slice(0, count);
            await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(sequence.contextTokens.length));
            await logged(() => windows.length > step);
        }
        return windows;
    } finally {
        tiny.llama.logLevel = LlamaLogLevel.error;
        await context.dispose();
    }
}

test("on the CPU, attention reads the used KV cells padded to a multiple of 32, not 256", async (t) => {
    if (tiny.llama.buildType !== "localBuild")
        return t.skip("the patched engine is not built here (npm run build:engine; .ci/run builds it): the prebuilt binding is loaded");
    // One decode per step: 40 tokens from empty, then 2, 28 and 60 more on top; each window is the used cells rounded up.
    const windows = await windowsFor([40, 42, 70, 130]);
    assert.deepEqual(windows, [64, 64, 96, 160]);
});
