import {test} from "node:test";
import assert from "node:assert/strict";
import {fileNameOf} from "./fileNameOf.ts";

test("the file name of POSIX and Windows paths", () => {
    assert.equal(fileNameOf("/home/me/.local/share/svc-studio/models/Qwen3-0.6B-Q8_0.gguf"), "Qwen3-0.6B-Q8_0.gguf");
    assert.equal(fileNameOf("C:\\Users\\me\\AppData\\Local\\svc-studio\\models\\tiny.gguf"), "tiny.gguf");
    assert.equal(fileNameOf("tiny.gguf"), "tiny.gguf");
});
