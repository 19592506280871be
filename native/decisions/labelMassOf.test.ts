import {test} from "node:test";
import assert from "node:assert/strict";
import type {Token} from "node-llama-cpp";
import {ApiError} from "../../protocol/errors.ts";
import {labelMassOf} from "./rounds.ts";

// A five-token vocabulary with logits [2, 0, 1, -1, 3]: its softmax written out, against labelMassOf fed what
// node-llama-cpp returns (the filtered logits plus the best one, and the total weight relative to the best).
const vocabulary = [2, 0, 1, -1, 3];
const best = Math.max(...vocabulary);
const weight = vocabulary.reduce((sum, logit) => sum + Math.exp(logit - best), 0);
const probability = (id: number) => Math.exp(vocabulary[id]) / vocabulary.reduce((sum, logit) => sum + Math.exp(logit), 0);
const returned = (ids: number[]) => new Map([...ids, 4].map((id) => [id as Token, vocabulary[id]]));

test("labelMassOf is the full softmax summed over the label ids, each id once", () => {
    const mass = labelMassOf(returned([0, 2]), weight, [0, 2] as Token[]);
    assert.ok(Math.abs(mass - (probability(0) + probability(2))) < 1e-12);
    assert.ok(Math.abs(labelMassOf(returned([0, 2]), weight, [0, 2, 2] as Token[]) - mass) < 1e-12, "a duplicate id counts once");
    // Every token a label: the mass is 1.
    assert.ok(Math.abs(labelMassOf(returned([0, 1, 2, 3]), weight, [0, 1, 2, 3, 4] as Token[]) - 1) < 1e-12);
});

test("labelMassOf survives logits far from zero", () => {
    const shifted = new Map([[0 as Token, 1002], [1 as Token, 1003]]);
    assert.ok(Math.abs(labelMassOf(shifted, 1 + Math.exp(-1) + Math.exp(-2), [0] as Token[]) - Math.exp(-1) / (1 + Math.exp(-1) + Math.exp(-2))) < 1e-12);
});

test("no vocabulary total from node-llama-cpp is a 500 internal_error, not a made-up mass", () => {
    assert.throws(() => labelMassOf(returned([0]), undefined, [0] as Token[]), (error) => error instanceof ApiError && error.status === 500 && error.code === "internal_error");
    assert.throws(() => labelMassOf(new Map(), weight, [0] as Token[]), ApiError);
});
