import assert from "node:assert/strict";
import {access, mkdtemp, rm, stat, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {ensureTinyGguf, writeTinyGguf} from "../../test/fixtures/gguf/ensureTinyGguf.ts";
import {encodeGguf, type GgufValue} from "../../test/fixtures/gguf/encodeGguf.ts";
import {readModelFileInfo} from "./modelFile.ts";

const dir = await mkdtemp(path.join(os.tmpdir(), "svc-model-info-"));
after(() => rm(dir, {recursive: true, force: true}));

test("the project's tiny ChatML GGUF describes itself from its header", async () => {
    const file = await ensureTinyGguf();
    const info = await readModelFileInfo(file);
    assert.equal(info.architecture, "llama");
    assert.equal(info.name, "Tiny ChatML Fixture");
    assert.equal(info.contextLength, 4096);
    assert.equal(info.layers, 2);
    assert.equal(info.quantization, "F32");
    assert.equal(info.hasChatTemplate, true);
    assert.equal(info.chatWrapper, "ChatML");
    assert.equal(info.canThink, false);
    assert.equal(info.canCallTools, false);
    // All F32: the counted weights take 4 bytes each, which is most of the file (the rest is the header and vocabulary).
    const {size} = await stat(file);
    assert.ok(info.parameters != null && info.parameters * 4 < size && info.parameters * 4 > size / 2, `${info.parameters} parameters in ${size} bytes`);
    assert.match(info.parameterLabel ?? "", /^\d+(\.\d+)?K$/);
});

test("a thinking chat template is seen without loading the model", async () => {
    const file = path.join(dir, "thinking.gguf");
    await writeTinyGguf(file, {chatTemplate: "chatml-thinking", name: "Tiny Thinker"});
    const info = await readModelFileInfo(file);
    assert.equal(info.name, "Tiny Thinker");
    assert.equal(info.canThink, true);
    assert.equal(info.hasChatTemplate, true);
});

test("size label, file type and a template that renders tools are read from the metadata", async () => {
    // A header-only GGUF in the shape of a quantized Qwen3 file: the listing reads metadata, never tensors.
    const metadata = new Map<string, GgufValue>([
        ["general.architecture", {type: "string", value: "qwen3"}],
        ["general.name", {type: "string", value: "Header Only"}],
        ["general.size_label", {type: "string", value: "1.7B"}],
        ["general.file_type", {type: "u32", value: 15}],
        ["qwen3.context_length", {type: "u32", value: 40960}],
        ["qwen3.block_count", {type: "u32", value: 28}],
        ["tokenizer.chat_template", {type: "string", value:
            "{%- if tools %}{{- '<|im_start|>system\\n# Tools\\n' }}{%- for tool in tools %}{{- tool | tojson }}{%- endfor %}{{- '<|im_end|>\\n' }}{%- endif %}" +
            "{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}{%- endfor %}" +
            "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"}]
    ]);
    const file = path.join(dir, "header-only.gguf");
    await writeFile(file, encodeGguf(metadata, [], 32));
    const info = await readModelFileInfo(file);
    assert.equal(info.architecture, "qwen3");
    assert.equal(info.parameterLabel, "1.7B");
    assert.equal(info.parameters, undefined);
    assert.equal(info.quantization, "Q4_K_M");
    assert.equal(info.contextLength, 40960);
    assert.equal(info.layers, 28);
    assert.equal(info.canCallTools, true);
});

test("a file that is not a GGUF is refused with the engine's message", async () => {
    const file = path.join(dir, "page.gguf");
    await writeFile(file, "<!doctype html><html></html>");
    await assert.rejects(readModelFileInfo(file), /not a GGUF model file/);
});

// The shared development models, facts from /work/shared/models/README.md.
const shared = "/work/shared/models";
const hasShared = await access(path.join(shared, "stories260K.gguf")).then(() => true, () => false);

test("shared stories260K.gguf: llama, ~293K parameters, context 2048, no chat template", {skip: hasShared ? false : "no /work/shared/models here"}, async () => {
    const info = await readModelFileInfo(path.join(shared, "stories260K.gguf"));
    assert.equal(info.architecture, "llama");
    assert.equal(info.contextLength, 2048);
    assert.equal(info.parameterLabel, "293K");
    assert.equal(info.hasChatTemplate, false);
    assert.equal(info.chatWrapper, "General");
    assert.equal(info.canThink, false);
});

test("shared llama-2-tiny-random.gguf: one layer, a 32000-token vocabulary read quickly", {skip: hasShared ? false : "no /work/shared/models here"}, async () => {
    const info = await readModelFileInfo(path.join(shared, "llama-2-tiny-random.gguf"));
    assert.equal(info.architecture, "llama");
    assert.equal(info.layers, 1);
    assert.equal(info.hasChatTemplate, false);
    // Embedding 8 x vocabulary 32000 in the token table alone: at least 256000 weights.
    assert.ok(info.parameters != null && info.parameters >= 8 * 32000, `${info.parameters}`);
});
