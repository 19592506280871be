// A real trained model through the whole server: Karpathy's stories260K writes children's-story English.
// The file is provided beside the repository on build machines only; without it these tests are skipped.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {existsSync} from "node:fs";
import {fileURLToPath} from "node:url";
import {tokenizePrompt} from "../../native/completions/routes.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

const modelPath = fileURLToPath(new URL("../../../shared/models/stories260K.gguf", import.meta.url));

/** Story text: mostly letters and punctuation, made of words a children's story uses. */
function assertStoryText(text: string) {
    const words = text.match(/[A-Za-z']+/g) ?? [];
    assert.ok(words.length >= 8, `only ${words.length} words in ${JSON.stringify(text)}`);
    const plain = text.replace(/[A-Za-z0-9 .,!?'"\n-]/g, "");
    assert.ok(plain.length <= text.length * 0.05, `not plain English: ${JSON.stringify(text)}`);
    const common = words.filter((word) => /^(the|a|and|was|to|she|he|it|they|her|his|in|of|with|day|one|little)$/i.test(word));
    assert.ok(common.length >= 3, `no story words in ${JSON.stringify(text)}`);
}

if (!existsSync(modelPath)) {
    test("stories260K serves real story text", (t) => {
        t.skip(`${modelPath} is not present on this machine`);
    });
} else {
    describe("stories260K", () => {
        let server: TestServer;
        before(async () => {
            server = await startTestServer({modelPath});
        });
        after(async () => {
            await server?.close();
        });

        test("legacy completions continue \"Once upon a time\" with a story", async () => {
            const prompt = "Once upon a time";
            const completion = await server.client.completions.create({model: "svc-1", prompt, max_tokens: 60, temperature: 0});
            assertStoryText(completion.choices[0].text);
            assert.equal(completion.usage?.prompt_tokens, (await tokenizePrompt(server.engine.model, prompt)).length);
            assert.equal(completion.usage?.completion_tokens, 60);

            const stream = await server.client.completions.create({model: "svc-1", prompt, max_tokens: 60, temperature: 0, stream: true});
            let streamed = "";
            for await (const chunk of stream) streamed += chunk.choices[0]?.text ?? "";
            assert.equal(streamed, completion.choices[0].text);
        });

        test("sampled stories are English too", async () => {
            const completion = await server.client.completions.create({model: "svc-1", prompt: "One day, a little dog", max_tokens: 60, temperature: 0.8, seed: 3});
            assertStoryText(completion.choices[0].text);
        });

        test("chat completions answer with story words through the model's chat format", async () => {
            const completion = await server.client.chat.completions.create({
                model: "svc-1", messages: [{role: "user", content: "Tell me a story about a cat."}], max_tokens: 60, temperature: 0
            });
            const text = completion.choices[0].message.content ?? "";
            const words = text.match(/[A-Za-z']+/g) ?? [];
            assert.ok(words.length >= 8, JSON.stringify(text));
        });
    });
}
