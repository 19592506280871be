import {test} from "node:test";
import assert from "node:assert/strict";
import type {LlamaContext} from "node-llama-cpp";
import {useTinyModel} from "../../test/support/tinyModel.ts";
import {DecodeGathering} from "./decodeGathering.ts";
import {SequenceScheduler} from "./SequenceScheduler.ts";

// What goes into each decode when 4 sequences generate at once. llama.cpp cuts a batch into ubatches of
// consecutive ascending sequence ids (node-llama-cpp's KV cache is never unified), so the order matters as much as the
// count: patches/node-llama-cpp+*.patch adds a batch's sequences in id order and passes the queued ids to a custom
// dispatch schedule; DecodeGathering uses them to wait for every generating sequence. The decodes are observed at the
// binding (`addToBatch` per sequence, then `decodeBatch`), not timed.
const tiny = useTinyModel();

/** Records the sequence ids of each decode the context runs. */
function recordDecodes(context: LlamaContext): number[][] {
    const binding = (context as unknown as {_ctx: Record<string, (...args: unknown[]) => unknown>})._ctx;
    const decodes: number[][] = [];
    let current: number[] = [];
    const addToBatch = binding.addToBatch.bind(binding);
    const decodeBatch = binding.decodeBatch.bind(binding);
    Object.defineProperty(binding, "addToBatch", {value: (sequenceId: number, ...rest: unknown[]) => {
        current.push(sequenceId);
        return addToBatch(sequenceId, ...rest);
    }});
    Object.defineProperty(binding, "decodeBatch", {value: (...args: unknown[]) => {
        decodes.push(current);
        current = [];
        return decodeBatch(...args);
    }});
    return decodes;
}

/**
 * 4 sequences (ids 0-3) generate `tokens` tokens each, the last taken first, so they queue in descending id order;
 * `generating` holds the ids of those not finished yet, as the server's leases do.
 */
async function generateOnFour(context: LlamaContext, tokens: number, generating = new Set<number>()) {
    const sequences = [0, 1, 2, 3].map(() => context.getSequence());
    sequences.forEach((_, id) => generating.add(id));
    await Promise.all(sequences.map((sequence, id) => [sequence, id] as const).reverse().map(async ([sequence, id]) => {
        let count = 0;
        // End-of-generation tokens are yielded and fed back like any other, so each runs for all of its tokens.
        for await (const token of sequence.evaluate(tiny.model.tokenize(`once upon a time ${id}`), {yieldEogToken: true})) {
            void token;
            if (++count >= tokens) break;
        }
        generating.delete(id);
    }));
}

test("a decode adds its sequences in ascending id order, whatever order they were queued in", async () => {
    const context = await tiny.model.createContext({contextSize: 1024, sequences: 4, threads: {ideal: 1, min: 1}, flashAttention: false});
    try {
        const decodes = recordDecodes(context);
        await generateOnFour(context, 24);
        const multi = decodes.filter((ids) => ids.length > 1);
        assert.ok(multi.length > 0, "some decodes hold more than one sequence");
        for (const ids of multi) assert.deepEqual(ids, [...ids].sort((a, b) => a - b), `decode of sequences ${ids}`);
    } finally {
        await context.dispose();
    }
});

test("with the gathering schedule every step of 4 generating sequences is one decode of all 4", async () => {
    const generating = new Set<number>();
    const gathering = new DecodeGathering({leasedSequenceIds: () => generating, maxWaitMs: 1_000, stepShare: Infinity});
    const context = await tiny.model.createContext({contextSize: 1024, sequences: 4, threads: {ideal: 1, min: 1}, flashAttention: false,
        batching: {dispatchSchedule: gathering.schedule}});
    try {
        const decodes = recordDecodes(context);
        await generateOnFour(context, 40, generating);
        // The first decodes hold the prompts as they arrive and the last ones the sequences still finishing; the
        // steps between gather all four. node-llama-cpp's own schedule ran 1.4-2 decodes a step here.
        const steps = decodes.slice(4, -4);
        assert.ok(steps.length >= 30, `${decodes.length} decodes`);
        assert.deepEqual(steps.filter((ids) => ids.join() !== "0,1,2,3"), [], "decodes that were not one full step");
        assert.equal(gathering.counts.cutShort, 0);
    } finally {
        await context.dispose();
    }
});

test("a sequence that stops generating is waited for at most once; idle ones never", async () => {
    let leased = new Set([0, 1]);
    const gathering = new DecodeGathering({leasedSequenceIds: () => leased, maxWaitMs: 50});
    const queued = new Set<number>();
    const dispatched: number[][] = [];
    const step = () => new Promise<void>((resolve) => gathering.schedule(() => {
        dispatched.push([...queued]);
        queued.clear();
        resolve();
    }, queued));
    // Two steps of sequences 0 and 1 teach it the step's length (a few milliseconds here).
    for (let round = 0; round < 3; round++) {
        queued.add(0).add(1);
        await step();
        await new Promise((resolve) => setTimeout(resolve, 4));
    }
    // Sequence 1 goes quiet while still leased: the next decode waits for it (a quarter of a step), then goes without it.
    queued.add(0);
    await step();
    assert.equal(gathering.counts.cutShort, 1);
    // It was not in that decode, so the one after does not wait again; nor for sequence 2 or 3, which are not leased.
    leased = new Set([0, 1]);
    queued.add(0);
    await step();
    assert.equal(gathering.counts.cutShort, 1);
    assert.deepEqual(dispatched.slice(-2), [[0], [0]]);
});

test("the scheduler hands out the lowest free sequence among equals, so the busy ones stay consecutive from 0", async () => {
    const context = await tiny.model.createContext({contextSize: 1024, sequences: 4, threads: {ideal: 1, min: 1}, flashAttention: false});
    try {
        const scheduler = new SequenceScheduler([0, 1, 2, 3].map(() => context.getSequence()), {maxQueue: 4});
        const leases = [await scheduler.acquire([]), await scheduler.acquire([]), await scheduler.acquire([])];
        assert.deepEqual([...scheduler.leasedSequenceIds()].sort(), [0, 1, 2]);
        leases[0].release();
        leases[1].release();
        // Free now: 3 (never leased), then 0 and 1 as they came back; none holds a prefix of an empty prompt.
        const next = await scheduler.acquire([]);
        assert.equal(next.sequence, leases[0].sequence);
        assert.deepEqual([...scheduler.leasedSequenceIds()].sort(), [0, 2]);
    } finally {
        await context.dispose();
    }
});
