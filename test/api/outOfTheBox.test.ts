// The README's first command on a fresh clone with nothing beside it (no ../shared, an empty model library):
// `npm run serve` serves the built-in stories260K model, says so in one line, and answers a chat completion.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {execFileSync} from "node:child_process";
import {existsSync} from "node:fs";
import {mkdtemp, rm, symlink} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import OpenAI from "openai";
import {repoRoot, startProcess, type StartedProcess} from "../ui/utils/startProcess.ts";

let workDir: string;
let server: StartedProcess & {match: RegExpMatchArray};

before(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), "svc-fresh-clone-"));
    const clone = path.join(workDir, "svc-studio");
    // A clone holds what is committed: the built-in model must be part of the repository, not a file made on the side.
    execFileSync("git", ["clone", "--quiet", "--no-hardlinks", repoRoot, clone]);
    assert.ok(!existsSync(path.join(workDir, "shared")), "nothing lies beside the clone");
    // `npm install` is the step before; the clone shares this checkout's installed packages instead of downloading them.
    await symlink(path.join(repoRoot, "node_modules"), path.join(clone, "node_modules"), "dir");
    server = await startProcess("", ["--port", "0"], /listening on (http:\/\/\S+)/, {
        command: ["npm", "run", "--silent", "serve", "--"],
        cwd: clone,
        env: {SVC_STUDIO_MODELS_DIR: path.join(workDir, "empty-library"), SVC_MODEL: ""},
        timeoutMs: 120_000
    });
});
after(async () => {
    await server?.stop();
    await rm(workDir, {recursive: true, force: true});
});

test("npm run serve with no model serves the built-in model and says how to get a better one", async () => {
    const output = server.output();
    const notes = output.split("\n").filter((line) => line.includes("built-in stories260K"));
    assert.equal(notes.length, 1, output);
    assert.match(notes[0], /svc-studio pull/);
    assert.match(output, /model .*resources\/models\/stories260K\.gguf/);
});

test("the built-in model answers a chat completion (it has no chat template)", async () => {
    const client = new OpenAI({baseURL: `${server.match[1]}/svc-1/v1`, apiKey: "unused", maxRetries: 0});
    const reply = await client.chat.completions.create({model: "svc-1", messages: [{role: "user", content: "Tell me a story."}], max_tokens: 24, temperature: 0});
    assert.equal(reply.object, "chat.completion");
    assert.ok(reply.usage!.completion_tokens > 0);
    // stories260K writes children's-story English: its words are made of letters.
    assert.match(reply.choices[0].message.content ?? "", /[a-z]{3,}/i);
});
