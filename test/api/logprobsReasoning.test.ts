// Token probabilities on a thinking model: reasoning tokens are never scored, only the answer's, with
// the tiny fixture built with a `<think>` template (its random weights think until the budget closes the thought).
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {writeTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

let server: TestServer;
let workDir: string;

before(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), "logprobs-reasoning-"));
    const modelPath = path.join(workDir, "tiny-thinking.gguf");
    await writeTinyGguf(modelPath, {chatTemplate: "chatml-thinking"});
    server = await startTestServer({modelPath, contextSize: 1024});
});
after(async () => {
    await server?.close();
    await rm(workDir, {recursive: true, force: true});
});

const ask = (body: Record<string, unknown>) => server.client.chat.completions.create({
    model: "svc-1", messages: [{role: "user", content: "Hello"}], temperature: 0, max_tokens: 30,
    chat_template_kwargs: {enable_thinking: true}, thinking_token_budget: 8, logprobs: true, top_logprobs: 2, ...body
} as any) as Promise<any>;

test("only the answer's tokens are scored, never the reasoning's", async () => {
    const completion = await ask({});
    const {content, reasoning} = completion.choices[0].message;
    assert.ok(reasoning.length > 0, "the turn thought");
    const entries = completion.choices[0].logprobs.content;
    assert.equal(Buffer.from(entries.flatMap((entry: any) => entry.bytes)).toString("utf8"), content, "the scored tokens spell the answer only");
    assert.ok(entries.length > 0 && entries.length < completion.usage.completion_tokens, `${entries.length} of ${completion.usage.completion_tokens} tokens scored`);
    for (const entry of entries) assert.equal(entry.top_logprobs[0].token, entry.token, "greedy picks the top-1 token");
});

test("a streamed thinking turn carries logprobs on content chunks only, equal to the unstreamed ones", async () => {
    const plain = await ask({});
    const stream = await ask({stream: true}) as AsyncIterable<any>;
    const scored: unknown[] = [];
    for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (choice?.delta.reasoning) assert.equal(choice.logprobs, null, "reasoning chunks carry no logprobs");
        scored.push(...(choice?.logprobs?.content ?? []));
    }
    assert.deepEqual(scored, plain.choices[0].logprobs.content);
});
