// The "View code" snippets are programs people paste into a terminal: run the curl and TypeScript ones
// against a real engine that requires a key, with the key only in SVC_API_KEY, and type-check the
// TypeScript one against the real openai package.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {execFile} from "node:child_process";
import {mkdir, writeFile} from "node:fs/promises";
import path from "node:path";
import {promisify} from "node:util";
import ts from "typescript";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {buildChatRequest, defaultSchemaText, type ChatDraft} from "../../renderer/src/features/playground/chat.ts";
import {chatParamSpecs, specsForTarget} from "../../renderer/src/features/playground/params.ts";
import {toCurl, toTypeScript, type CodeRequest} from "../../renderer/src/features/playground/viewCode.ts";
import {newQuestion, type DraftQuestion, type DraftSet} from "../../renderer/src/features/questionSet/draft.ts";
import {buildDecisionRequest} from "../../renderer/src/features/questionSet/requests.ts";
import {startEngine, type Engine} from "./utils/startEngine.ts";
import {repoRoot} from "./utils/startProcess.ts";

const run = promisify(execFile);
const key = "ck_snippet_7d1e";
// Inside the repository, so `import OpenAI from "openai"` resolves from its node_modules.
const scratch = path.join(repoRoot, "test-artifacts/ui/snippets");

const chatBody = {
    model: "svc-1",
    messages: [{role: "system", content: "It's a 'quoted' test"}, {role: "user", content: "Hi"}],
    max_tokens: 8,
    temperature: 0,
    include_reasoning: false,
    chat_template_kwargs: {enable_thinking: false}
};

describe("View code snippets run as shown", {timeout: 120_000}, () => {
    let engine: Engine;
    let request: (body: Record<string, unknown>, endpoint?: CodeRequest["endpoint"]) => CodeRequest;

    before(async () => {
        engine = await startEngine({model: await ensureTinyGguf(), apiKey: key});
        request = (body, endpoint = "chat") => ({endpoint, baseUrl: `${engine.url}/svc-1/v1`, body});
        await mkdir(scratch, {recursive: true});
    });

    after(async () => {
        await engine?.stop();
    });

    test("curl: a streaming and a plain chat succeed with the key from the environment, and fail without it", async () => {
        const env = {...process.env, SVC_API_KEY: key};
        const plain = await run("bash", ["-c", toCurl(request(chatBody))], {env});
        const completion = JSON.parse(plain.stdout);
        assert.equal(completion.object, "chat.completion");
        assert.equal(completion.usage.completion_tokens > 0, true);
        const streamed = await run("bash", ["-c", toCurl(request({...chatBody, stream: true}))], {env});
        assert.match(streamed.stdout, /data: \[DONE\]/);
        const refused = await run("bash", ["-c", toCurl(request(chatBody))], {env: {...process.env, SVC_API_KEY: "ck_wrong"}});
        assert.equal(JSON.parse(refused.stdout).error.code, "invalid_api_key");
    });

    test("a forced tool call with stream on: the app's reason for not sending it is the engine's own 400; unstreamed, the snippet gets the call", async () => {
        const env = {...process.env, SVC_API_KEY: key};
        const draft = (stream: boolean): ChatDraft => ({
            systemPrompt: "",
            messages: [{id: "1", role: "user", content: "Weather?", images: []}],
            params: {max_tokens: 64, temperature: 0, stream},
            toolsText: JSON.stringify([{type: "function", function: {name: "get_weather", parameters: {type: "object", properties: {unit: {enum: ["celsius", "fahrenheit"]}}, required: ["unit"]}}}]),
            toolChoice: "required",
            responseFormat: {mode: "none", schemaText: defaultSchemaText}
        });
        const streamed = buildChatRequest(draft(true));
        assert.ok(streamed.errors.stream, "the app holds the streamed request back");
        const refused = await run("bash", ["-c", toCurl(request(streamed.body))], {env});
        const error = JSON.parse(refused.stdout).error;
        assert.equal(error.code, "invalid_request");
        assert.equal(error.message, streamed.errors.stream);

        const unstreamed = buildChatRequest(draft(false));
        assert.deepEqual(unstreamed.errors, {});
        const completion = JSON.parse((await run("bash", ["-c", toCurl(request(unstreamed.body))], {env})).stdout);
        assert.equal(completion.choices[0].finish_reason, "tool_calls");
        assert.equal(completion.choices[0].message.tool_calls[0].function.name, "get_weather");
    });

    test("seed, as its help says on the local engine: the same seed gives the same output at temperature 0.9", async () => {
        const help = specsForTarget(chatParamSpecs, {kind: "local"}).find((spec) => spec.key === "seed")!.help;
        assert.match(help, /same output at any temperature/);
        const env = {...process.env, SVC_API_KEY: key};
        const body = {...chatBody, temperature: 0.9, seed: 42, max_tokens: 24};
        const replies = await Promise.all([0, 1].map(async () => JSON.parse((await run("bash", ["-c", toCurl(request(body))], {env})).stdout).choices[0].message.content));
        assert.equal(replies[0], replies[1]);
        const other = JSON.parse((await run("bash", ["-c", toCurl(request({...body, seed: 43}))], {env})).stdout).choices[0].message.content;
        assert.notEqual(other, replies[0], "another seed samples other text, so the match is the seed's doing");
    });

    test("TypeScript: type-checks against the openai package and prints the streamed reply", async () => {
        const files = {
            chat: toTypeScript(request({...chatBody, stream: true, stream_options: {include_usage: true}})),
            chatOnce: toTypeScript(request({...chatBody, tools: [{type: "function", function: {name: "f", parameters: {type: "object", properties: {}}}}], tool_choice: "auto", response_format: {type: "json_object"}})),
            responses: toTypeScript(request({model: "svc-1", input: "Hi", max_output_tokens: 8, stream: true, chat_template_kwargs: {enable_thinking: false}}, "responses")),
            completions: toTypeScript(request({model: "svc-1", prompt: "Once", max_tokens: 8, temperature: 0, stop: ["."]}, "completions"))
        };
        const paths = await Promise.all(Object.entries(files).map(async ([name, code]) => {
            const file = path.join(scratch, `${name}.ts`);
            await writeFile(file, code);
            return file;
        }));
        const program = ts.createProgram(paths, {
            target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
            strict: true, noEmit: true, skipLibCheck: true, types: ["node"]
        });
        const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
        assert.deepEqual(problems, []);

        const {stdout} = await run(process.execPath, ["--import", "tsx", paths[0]], {cwd: repoRoot, env: {...process.env, SVC_API_KEY: key}});
        assert.ok(stdout.length > 0, "the snippet printed the streamed content");
        const legacy = await run(process.execPath, ["--import", "tsx", paths[3]], {cwd: repoRoot, env: {...process.env, SVC_API_KEY: key}});
        assert.ok(legacy.stdout.trim().length > 0);
    });

    test("decision endpoints: the Decision studio's request as curl and TypeScript gets the answers, on both endpoints", async () => {
        const questions: DraftQuestion[] = [];
        for (const type of ["predicate", "choice", "score"] as const) questions.push(newQuestion(type, questions));
        const env = {...process.env, SVC_API_KEY: key};
        for (const format of ["decisions", "systemone"] as const) {
            const draft: DraftSet = {format, name: "", description: "", explain: false, maxSoftTokens: null, questions, calibration: null};
            const {body} = buildDecisionRequest(draft, {kind: "json", value: {review: "It's late, but \"fine\""}});
            const decision: CodeRequest = {endpoint: format, baseUrl: `${engine.url}/svc-1-decision/v1`, body: body as Record<string, unknown>};
            const answered = JSON.parse((await run("bash", ["-c", toCurl(decision)], {env})).stdout);
            if (format === "decisions") assert.equal(answered.answers.length, 3);
            else assert.deepEqual(Object.keys(answered.answers), ["is_relevant", "category", "quality"]);

            const file = path.join(scratch, `${format}.ts`);
            await writeFile(file, toTypeScript(decision));
            const program = ts.createProgram([file], {
                target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
                strict: true, noEmit: true, skipLibCheck: true, types: ["node"]
            });
            assert.deepEqual(ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")), []);
            const printed = JSON.parse((await run(process.execPath, ["--import", "tsx", file], {cwd: repoRoot, env})).stdout);
            assert.equal(Object.keys(printed.answers).length, 3);
            // The key comes from the environment alone: a wrong one is refused.
            const refused = await run(process.execPath, ["--import", "tsx", file], {cwd: repoRoot, env: {...process.env, SVC_API_KEY: "ck_wrong"}})
                .then(() => assert.fail("the wrong key was accepted"), (error: {stderr: string}) => error.stderr);
            assert.match(refused, /401/);
        }
    });
});
