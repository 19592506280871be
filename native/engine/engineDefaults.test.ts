import {test} from "node:test";
import assert from "node:assert/strict";
import {flashAttentionFor} from "./LocalEngine.ts";
import {defaultThreads, describeDefaultThreads} from "./threads.ts";

test("the default leaves one core to Node's own thread, and never goes below one thread", () => {
    assert.equal(defaultThreads(1), 1);
    assert.equal(defaultThreads(2), 1);
    assert.equal(defaultThreads(8), 7);
});

test("flash attention is off on CPU, and left to llama.cpp's per-model check with a GPU, never forced on", () => {
    assert.equal(flashAttentionFor(false), false);
    // Forced on, a model whose heads the GPU kernel does not support runs its attention on the CPU (51x slower there).
    for (const gpu of ["cuda", "vulkan", "metal"] as const) assert.equal(flashAttentionFor(gpu), "auto");
});

test("help texts describe the default thread count with the number defaultThreads gives", () => {
    assert.equal(describeDefaultThreads(8), "7: this machine's 8 cores less one, for Node's own thread");
    assert.equal(describeDefaultThreads(1), "1: this machine's one core");
});
