import assert from "node:assert/strict";
import {test} from "node:test";
import {catalog} from "../library/catalog.ts";
import {DownloadError} from "./downloadModel.ts";
import {parseModelSource} from "./parseModelSource.ts";

test("hf:<user>/<repo>/<file> resolves to the file's /resolve/main/ URL", () => {
    assert.deepEqual(parseModelSource("hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf"), {
        source: "hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf",
        url: "https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf",
        fileName: "Qwen3-0.6B-Q8_0.gguf"
    });
    // A file in a folder of the repository keeps its folder in the URL; the saved name is its last segment.
    assert.equal(parseModelSource("hf:user/repo/q4/model q4.gguf").url, "https://huggingface.co/user/repo/resolve/main/q4/model%20q4.gguf");
    assert.equal(parseModelSource("hf:user/repo/q4/model q4.gguf").fileName, "model q4.gguf");
    for (const model of catalog) assert.match(parseModelSource(model.uri).url, /^https:\/\/huggingface\.co\/[^/]+\/[^/]+\/resolve\/main\/[^/]+\.gguf$/);
});

test("URLs keep their address; the name comes from the last segment or is given", () => {
    assert.equal(parseModelSource("http://127.0.0.1:8000/a/b/model.gguf?download=1").fileName, "model.gguf");
    assert.equal(parseModelSource("https://example.com/files/weights").fileName, "weights.gguf");
    assert.equal(parseModelSource("https://example.com/x.gguf", "mine.gguf").fileName, "mine.gguf");
});

test("bad sources and unsafe names are bad_url errors", () => {
    for (const [source, name] of [["hf:user/repo"], ["hf:user/../x.gguf"], ["file:///etc/passwd"], ["https://user:pw@example.com/x.gguf"],
        ["https://example.com/"], ["https://example.com/x.gguf", "../escape.gguf"], ["https://example.com/x.gguf", ".hidden.gguf"], ["https://example.com/x.gguf", "x.bin"]] as const)
        assert.throws(() => parseModelSource(source, name), (error: unknown) => error instanceof DownloadError && error.code === "bad_url", `${source} ${name ?? ""}`);
});
