import assert from "node:assert/strict";
import {test} from "node:test";
import type {Preset} from "../playground/stores.ts";
import {parsePresetFile, toPresetFile} from "./presetFile.ts";

const presets: Preset[] = [
    {id: "1", name: "Deterministic", kind: "chat", params: {temperature: 0, seed: 42, stop: ["\n"], stream: false}, createdAt: 5},
    {id: "2", name: "Long", kind: "responses", params: {max_output_tokens: 4000}, createdAt: 6}
];

test("an exported file imports back to the same presets (with fresh ids)", () => {
    const back = parsePresetFile(toPresetFile(presets));
    assert.deepEqual(back.map(({id: _id, ...rest}) => rest), presets.map(({id: _id, ...rest}) => rest));
    assert.notEqual(back[0].id, "1");
});

test("other files and bad presets are refused with the place of the fault", () => {
    assert.throws(() => parsePresetFile("{"), /^Error: Not a JSON file/);
    assert.throws(() => parsePresetFile(JSON.stringify({presets: []})), /Not a presets file/);
    const file = (preset: unknown) => JSON.stringify({format: "svc-studio-presets", version: 1, presets: [preset]});
    assert.throws(() => parsePresetFile(file({name: "x", kind: "chat", params: {temprature: 1}})), /presets\[0\]\.params\.temprature: not a chat parameter/);
    assert.throws(() => parsePresetFile(file({name: "x", kind: "chat", params: {temperature: "hot"}})), /presets\[0\]\.params\.temperature: must be a number/);
    assert.throws(() => parsePresetFile(file({name: "x", kind: "chat", params: {stop: [1]}})), /params\.stop: must be a string\[\]/);
    assert.throws(() => parsePresetFile(file({name: "", kind: "chat", params: {}})), /presets\[0\]\.name/);
    assert.throws(() => parsePresetFile(file({name: "x", kind: "decisions", params: {}})), /presets\[0\]\.kind/);
    assert.throws(() => parsePresetFile(file({name: "x", kind: "completions", params: {include_reasoning: true}})), /not a completions parameter/);
});
