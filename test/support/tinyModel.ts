import {after, before} from "node:test";
import {getLlama, LlamaLogLevel, type Llama, type LlamaModel} from "node-llama-cpp";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";

/**
 * The tiny fixture model for a test file that drives node-llama-cpp directly: loaded before its tests (CPU, one
 * thread) and disposed after them. Read `model` inside tests, once `before` has run.
 */
export function useTinyModel(): {readonly llama: Llama, readonly model: LlamaModel} {
    const loaded = {} as {llama: Llama, model: LlamaModel};
    before(async () => {
        loaded.llama = await getLlama({gpu: false, build: "never", maxThreads: 1, logLevel: LlamaLogLevel.error});
        loaded.model = await loaded.llama.loadModel({modelPath: await ensureTinyGguf()});
    });
    after(async () => {
        await loaded.model?.dispose();
        await loaded.llama?.dispose();
    });
    return loaded;
}
