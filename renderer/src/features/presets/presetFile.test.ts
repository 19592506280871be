import assert from "node:assert/strict";
import {test} from "node:test";
import type {Preset} from "../playground/presets.ts";
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

test("a version 2 file keeps each preset's prompt; a version 1 file still imports, as parameters only", () => {
    const withPrompt: Preset[] = [{
        id: "3", name: "Weather", kind: "chat", createdAt: 7, params: {temperature: 0, stream: false},
        prompt: {
            messages: [{role: "system", content: "Be brief."}, {role: "user", content: "Weather in Oslo?"}],
            tools: [{type: "function", function: {name: "get_weather", parameters: {type: "object", properties: {}}}}],
            tool_choice: "required",
            response_format: {type: "json_object"}
        }
    }, {id: "4", name: "Story", kind: "completions", createdAt: 8, params: {max_tokens: 64}, prompt: {prompt: "Once upon a time"}}];
    const file = JSON.parse(toPresetFile(withPrompt));
    assert.equal(file.version, 2);
    const back = parsePresetFile(JSON.stringify(file));
    assert.deepEqual(back.map(({id: _id, ...rest}) => rest), withPrompt.map(({id: _id, ...rest}) => rest));

    const old = parsePresetFile(JSON.stringify({format: "svc-studio-presets", version: 1, presets: [{name: "Old", kind: "chat", params: {temperature: 0.2}, createdAt: 1}]}));
    assert.deepEqual(old.map(({id: _id, ...rest}) => rest), [{name: "Old", kind: "chat", params: {temperature: 0.2}, createdAt: 1}]);
});

test("a prompt that does not read, or a newer version, is refused with its place", () => {
    const file = (preset: unknown, version = 2) => JSON.stringify({format: "svc-studio-presets", version, presets: [preset]});
    const chat = (prompt: unknown) => file({name: "x", kind: "chat", params: {}, prompt});
    assert.throws(() => parsePresetFile(chat({messages: [{role: "wizard", content: "?"}]})), /presets\[0\]\.prompt\.messages\[0\]\.role: must be one of system, user, assistant, tool/);
    assert.throws(() => parsePresetFile(chat({messages: [], tools: [{type: "function", function: {}}]})), /presets\[0\]\.prompt\.tools\[0\]\.function\.name: is required/);
    assert.throws(() => parsePresetFile(chat({messages: [], input: "hi"})), /presets\[0\]\.prompt\.input: not a chat prompt field/);
    assert.throws(() => parsePresetFile(file({name: "x", kind: "completions", params: {}, prompt: {prompt: 3}})), /prompt\.prompt: must be a string/);
    assert.throws(() => parsePresetFile(file({name: "x", kind: "responses", params: {}, prompt: {input: 3}})), /prompt\.input: must be a string or an array/);
    assert.throws(() => parsePresetFile(file({name: "x", kind: "chat", params: {}, prompt: {messages: []}}, 1)), /version 1 files hold parameters only/);
    assert.throws(() => parsePresetFile(file({name: "x", kind: "chat", params: {}}, 3)), /reads presets files of version 1 and 2, not 3/);
});
