import assert from "node:assert/strict";
import {after, before, test} from "node:test";
import {getLlama, LlamaLogLevel, type Llama, type LlamaContext, type LlamaModel} from "node-llama-cpp";
import {embeddedModelPath} from "../library/embeddedModel.ts";
import {evaluateRounds, resolveLabelTokens, type RoundInput} from "./rounds.ts";

// The patched engine reads a round's label logits straight from the batch (tokenLogitsSync) instead of through a
// sampler, which copies the whole vocabulary per round and sorts it for the label mass. Same numbers, no sampler.
const loaded = {} as {llama: Llama, model: LlamaModel, context: LlamaContext};
before(async () => {
    loaded.llama = await getLlama({gpu: false, build: "never", maxThreads: 1, logLevel: LlamaLogLevel.error});
    loaded.model = await loaded.llama.loadModel({modelPath: embeddedModelPath});
    loaded.context = await loaded.model.createContext({contextSize: 512, threads: {ideal: 1, min: 1}, flashAttention: false});
});
after(async () => {
    await loaded.context?.dispose();
    await loaded.model?.dispose();
    await loaded.llama?.dispose();
});

type Internals = {_ctx: {tokenLogitsSync?: unknown}, _sampleToken: (...args: unknown[]) => Promise<unknown>};

/** The rounds of two questions on one story, evaluated on a fresh sequence; counts the sampler runs it took. */
async function evaluate(withDirectRead: boolean) {
    const {model, context} = loaded;
    const internals = context as unknown as Internals;
    const sampleToken = internals._sampleToken;
    let samplings = 0;
    internals._sampleToken = (...args) => (samplings++, sampleToken.apply(context, args));
    // The binding's method sits on its prototype; an own property hides it, as a binding without the patch has none.
    if (!withDirectRead) Object.defineProperty(internals._ctx, "tokenLogitsSync", {value: undefined, configurable: true});
    const sequence = context.getSequence();
    try {
        const story = "Once upon a time there was a little girl named Lily. She liked to play with her red ball.";
        const rounds: RoundInput[] = ["Is the ball red? Reply Yes or No.\nAnswer:", "Which colour is the ball? A. red B. blue C. green\nAnswer:"].map((question, index) => {
            const tokens = model.tokenize(`${story}\nQuestion: ${question}`);
            const labels = index === 0 ? ["Yes", "No"] : ["A", "B", "C"];
            const {extension, tokens: labelTokens} = resolveLabelTokens(model, labels, tokens.slice(-4));
            return {tokens: [...tokens, ...extension], labelTokens};
        });
        const result = await evaluateRounds(sequence, rounds, {labelMass: true});
        return {result, samplings};
    } finally {
        sequence.dispose();
        internals._sampleToken = sampleToken;
        delete (internals._ctx as {tokenLogitsSync?: unknown}).tokenLogitsSync;
    }
}

test("label logits and the label mass are read without a sampler, and equal the sampler's", async (t) => {
    const patched = typeof (loaded.context as unknown as Internals)._ctx.tokenLogitsSync === "function";
    const viaSampler = await evaluate(false);
    assert.equal(viaSampler.samplings, 2, "one sampler run per round without the direct read");
    if (!patched) return t.skip("node-llama-cpp's prebuilt binding has no tokenLogitsSync (npm run build:engine builds it)");
    const direct = await evaluate(true);
    assert.equal(direct.samplings, 0, "the rounds' logits come without any sampler run");
    // The very floats llama.cpp computed, so equal to the last bit; every label id is there.
    assert.deepEqual(direct.result.logits.map((round) => round.map((map) => [...map])), viaSampler.result.logits.map((round) => round.map((map) => [...map])));
    assert.ok(direct.result.logits.flat().every((map) => [...map.values()].every(Number.isFinite)));
    assert.equal(direct.result.inputTokens, viaSampler.result.inputTokens);
    // The vocabulary total is summed in double here and in float by the sampler.
    direct.result.labelMasses!.forEach((mass, index) => {
        const expected = viaSampler.result.labelMasses![index];
        assert.ok(mass > 0 && mass <= 1 && Math.abs(mass - expected) <= 1e-6 * Math.max(expected, 1e-3), `label mass ${mass} against ${expected}`);
    });
});
