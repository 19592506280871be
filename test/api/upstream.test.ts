// `svc-studio serve --upstream` in front of a real third-party engine: llama.cpp's llama-server, built
// from the llama.cpp source node-llama-cpp bundles, serving the project's tiny GGUF. Between them a loopback TCP
// proxy shows what crosses the wire: refused requests never do, an engine that is down and back, a slow engine
// whose request the front cancels when its client times out. The chat family goes through the official openai
// client; decisions through the front must equal the local engine's on the same file, to the 2 decimals answered.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {startLlamaServer, type LlamaServer} from "../support/startLlamaServer.ts";
import {startLoopbackProxy, type LoopbackProxy} from "../support/loopbackProxy.ts";
import {startUpstreamServer, type RunningUpstreamServer} from "../../native/upstream/startUpstreamServer.ts";
import {runUpstreamServe} from "../../native/upstream/runUpstreamServe.ts";
import {parseServeArgs, UsageError} from "../../native/cli/serveArgs.ts";
import {LlamaDecisionEngine} from "../../native/decisions/LlamaDecisionEngine.ts";
import {loadUpstreamVocabulary, UpstreamDecisionBackend} from "../../native/upstream/upstreamDecisions.ts";
import {llamaCppExtra} from "../../native/upstream/labelProbabilities.ts";
import {parseDecisionsRequest} from "../../protocol/decisions/parseDecisionsRequest.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {callApi, type ApiReply} from "./utils/callApi.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {readSse} from "./utils/readSse.ts";
import {waitFor} from "./utils/waitFor.ts";
import {addWorkspace, openTeamStore, setTestPrices} from "./utils/teamServer.ts";

const key = "ck_upstream_test";
let modelPath: string;
let llama: LlamaServer;
let proxy: LoopbackProxy;
let front: RunningUpstreamServer;
let local: TestServer;
let client: OpenAI;

/** callApi against the front (it reads only the url and key of a TestServer). */
const call = (options: Parameters<typeof callApi>[1], server: {url: string, apiKey: string} = {url: front.url, apiKey: key}): Promise<ApiReply> =>
    callApi(server as TestServer, options);
const chatBody = (extra: Record<string, unknown> = {}) => ({model: "svc-1", messages: [{role: "user", content: "Hello there"}], max_tokens: 6, temperature: 0, ...extra});

before(async () => {
    modelPath = await ensureTinyGguf();
    // The first run on a fresh machine builds llama-server (about 15 minutes on 2 cores; cached afterwards).
    // Flash attention off, as the local engine runs on CPU (LocalEngine.ts), so both evaluate with the same kernels.
    llama = await startLlamaServer(modelPath, {args: ["-fa", "off"]});
    proxy = await startLoopbackProxy({host: "127.0.0.1", port: llama.port});
    front = await startUpstreamServer({host: "127.0.0.1", port: 0, apiKeys: [key], upstream: {baseUrl: `${proxy.url}/v1`, tokenizerPath: modelPath}});
    client = new OpenAI({baseURL: `${front.url}/svc-1/v1`, apiKey: key, maxRetries: 0, timeout: 30_000});
    local = await startTestServer();
}, {timeout: 30 * 60_000});

after(async () => {
    await front?.close();
    await local?.close();
    await proxy?.close();
    await llama?.close();
});

describe("the chat family through the front (official openai client)", () => {
    test("startup found the upstream's model, context and label method", () => {
        assert.equal(front.facts?.model, modelPath);
        assert.equal(front.facts?.contextSize, 4096);
        assert.match(front.decisions, /post_sampling_probs/);
    });

    test("chat completion: spec 2.2 shape under svc-1, usage of spec 2.3", async () => {
        const completion = await client.chat.completions.create(chatBody() as never) as OpenAI.ChatCompletion;
        assert.equal(completion.model, "svc-1");
        assert.equal(completion.object, "chat.completion");
        assert.equal(typeof completion.choices[0].message.content, "string");
        assert.ok(["stop", "length"].includes(completion.choices[0].finish_reason));
        const usage = completion.usage!;
        assert.ok(usage.prompt_tokens > 0 && usage.completion_tokens > 0 && usage.completion_tokens <= 6);
        assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
        assert.equal(typeof usage.prompt_tokens_details?.cached_tokens, "number");
    });

    test("chat stream: chunks as they come, the usage chunk when asked, [DONE] (spec 6.1)", async () => {
        const reply = await call({path: "/chat/completions", body: chatBody({stream: true, stream_options: {include_usage: true}, max_tokens: 8})});
        assert.equal(reply.status, 200);
        assert.match(reply.headers.get("content-type") ?? "", /text\/event-stream/);
        const chunks = readSse(reply.text);
        const last = chunks.at(-1);
        assert.deepEqual(last.choices, []);
        assert.ok(last.usage.completion_tokens > 0);
        for (const chunk of chunks.slice(0, -1)) {
            assert.equal(chunk.model, "svc-1");
            assert.equal(chunk.usage, null);
        }
        const text = chunks.flatMap((chunk) => chunk.choices.map((choice: any) => choice.delta.content ?? "")).join("");
        assert.ok(text.length > 0);
        assert.ok(chunks.some((chunk) => chunk.choices[0]?.finish_reason != null));

        // The openai client reads the same stream.
        let streamed = "";
        for await (const chunk of await client.chat.completions.create({...chatBody(), stream: true} as never) as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>)
            streamed += chunk.choices[0]?.delta?.content ?? "";
        assert.ok(streamed.length > 0);
    });

    test("legacy completions, plain and streamed", async () => {
        const completion = await client.completions.create({model: "svc-1", prompt: "Once upon a time", max_tokens: 5, temperature: 0});
        assert.equal(completion.model, "svc-1");
        assert.equal(completion.object, "text_completion");
        assert.ok(completion.choices[0].text.length > 0);
        assert.ok(completion.usage!.prompt_tokens > 0);
        let streamed = "";
        // Greedy, as every call here that checks for text: a sampled first token may end the text at once.
        for await (const chunk of await client.completions.create({model: "svc-1", prompt: "Once upon a time", max_tokens: 5, temperature: 0, stream: true})) streamed += chunk.choices[0]?.text ?? "";
        assert.ok(streamed.length > 0);
    });

    test("Responses on the upstream's chat: the object of spec 2.4 and the event sequence of 6.2", async () => {
        const response = await client.responses.create({model: "svc-1", input: "Say hi", max_output_tokens: 6, temperature: 0, instructions: "Be brief."});
        assert.equal(response.status, "completed");
        assert.equal(response.model, "svc-1");
        assert.equal(response.output.at(-1)?.type, "message");
        assert.equal(typeof response.output_text, "string");
        assert.ok(response.usage!.input_tokens > 0);
        const types: string[] = [];
        for await (const event of await client.responses.create({model: "svc-1", input: "Say hi", max_output_tokens: 6, temperature: 0, stream: true})) types.push(event.type);
        assert.deepEqual(types.slice(0, 2), ["response.created", "response.in_progress"]);
        assert.equal(types.at(-1), "response.completed");
        assert.ok(types.includes("response.output_text.delta"));
    });

    test("our 400s, 401s and 404s come before any upstream call", async () => {
        const before = proxy.requests.length;
        assertApiError(await call({path: "/chat/completions", body: chatBody({messages: []})}), 400, "invalid_request");
        assertApiError(await call({path: "/chat/completions", body: chatBody({max_tokens: 0})}), 400, "invalid_request");
        assertApiError(await call({path: "/chat/completions", body: chatBody({stream: true, response_format: {type: "json_object"}})}), 400, "invalid_request");
        assertApiError(await call({path: "/chat/completions", body: chatBody({model: "gpt-4"})}), 400, "invalid_request");
        assertApiError(await call({path: "/responses", body: {model: "svc-1", input: [{role: "user", content: [{type: "image_url", image_url: {url: "x"}}]}]}}), 400, "invalid_request");
        assertApiError(await call({path: "/completions", body: {model: "svc-1", prompt: "x", x_svc: {token_ids: true}, logprobs: 1}}), 400, "invalid_request");
        assertApiError(await call({path: "/chat/completions", body: chatBody(), authorization: null}), 401, "invalid_api_key", "authentication_error");
        assertApiError(await call({path: "/svc-2/v1/chat/completions", body: chatBody()}), 404, "not_found");
        const refused = await call({path: "/svc-1-decision/v1/decisions", body: {model: "svc-1-decision", input: "x", questions: [{type: "choice", instructions: "?", choices: [{value: "a"}]}]}});
        assert.equal(refused.status, 400);
        assert.deepEqual(proxy.requests.slice(before), [], "nothing reached the upstream");
    });
});

describe("decisions through the front", () => {
    const request = {
        model: "svc-1-decision",
        input: "The ball is red and the cat is asleep on the mat.",
        questions: [
            {type: "predicate", name: "red", instructions: "Is the ball red?"},
            {type: "choice", name: "colour", instructions: "Which colour is the ball?", choices: [{value: "red", description: "like a rose"}, {value: "green"}, {value: false}]},
            {type: "score", name: "mood", instructions: "How awake is the cat?", levels: [{label: "asleep"}, {label: "drowsy"}, {label: "awake"}, {label: "alert"}]},
            // 30 options: nested label rounds (labelTree.ts), so the method holds beyond one round per order.
            {type: "choice", name: "many", instructions: "Pick a number.", choices: Array.from({length: 30}, (_, index) => ({value: `n${index}`}))}
        ]
    };

    test("equal the local engine's on the same model file, to the 2 decimals of the answer", async () => {
        const [through, direct] = await Promise.all([
            call({path: "/svc-1-decision/v1/decisions", body: request}),
            call({path: "/svc-1-decision/v1/decisions", body: request}, local)
        ]);
        assert.equal(through.status, 200, through.text.slice(0, 300));
        assert.equal(direct.status, 200, direct.text.slice(0, 300));
        assert.deepEqual(through.json.answers, direct.json.answers);
        assert.ok(through.json.usage.input_tokens > 0);
        assert.equal(through.json.usage.output_tokens, 0);
    });

    test("label groups beyond the engine's cap are split and put on one scale through the anchor token", async () => {
        const parsed = parseDecisionsRequest(request);
        const vocabulary = await loadUpstreamVocabulary(modelPath);
        try {
            // A cap of 3 alternatives: every round's label ids (up to 8 spellings per label) take several requests.
            const capped = new LlamaDecisionEngine(new UpstreamDecisionBackend({
                upstream: front.upstream, upstreamModel: modelPath, vocabulary, contextSize: 4096, method: {extra: llamaCppExtra, cap: 3}
            }));
            const signal = new AbortController().signal;
            const [through, direct] = [await capped.decide(parsed, signal), await new LlamaDecisionEngine(local.engine).decide(parsed, signal)];
            through.answers.forEach((answer, index) => answer.probabilities.forEach((probability, option) =>
                assert.ok(Math.abs(probability - direct.answers[index].probabilities[option]) < 1e-3, `question ${index}, option ${option}: ${probability} vs ${direct.answers[index].probabilities[option]}`)));
        } finally {
            await vocabulary.dispose();
        }
    });

    test("/v1/systemone with explanations: one sentence each, stating the chosen answer", async () => {
        const reply = await call({path: "/svc-1-decision/v1/systemone", body: {model: "svc-1-decision", state: {ball: "red"}, x_svc: {explain: true},
            questions: {colour: {type: "choice", instructions: "Which colour?", criteria: {red: null, green: null}}}}});
        assert.equal(reply.status, 200, reply.text.slice(0, 300));
        const {choice} = reply.json.answers.colour;
        assert.ok(reply.json.x_svc.explanations.colour.startsWith(choice), reply.json.x_svc.explanations.colour);
        assert.ok(reply.json.usage.output_tokens > 0);
    });

    test("without the upstream's model file here, decisions are a clear 503 (and chat still works)", async () => {
        const blind = await startUpstreamServer({host: "127.0.0.1", port: 0, upstream: {baseUrl: `${proxy.url}/v1`, tokenizerPath: "/nonexistent/model.gguf"}});
        try {
            assert.match(blind.decisions, /need a local copy/);
            const reply = await call({path: "/svc-1-decision/v1/decisions", body: request, authorization: null}, {url: blind.url, apiKey: ""});
            assertApiError(reply, 503, "service_unavailable", "api_error", "--upstream-tokenizer");
            assert.equal((await call({path: "/chat/completions", body: chatBody(), authorization: null}, {url: blind.url, apiKey: ""})).status, 200);
        } finally {
            await blind.close();
        }
    });
});

describe("upstream failures (spec §7)", () => {
    test("down: 502 upstream_error on chat and decisions; back: answers again", async () => {
        await proxy.stop();
        try {
            assertApiError(await call({path: "/chat/completions", body: chatBody()}), 502, "upstream_error", "api_error");
            assertApiError(await call({path: "/chat/completions", body: chatBody({stream: true})}), 502, "upstream_error", "api_error");
            const decision = await call({path: "/svc-1-decision/v1/decisions", body: {model: "svc-1-decision", input: "x", questions: [{type: "predicate", instructions: "?"}]}});
            assert.equal(decision.status, 502);
            assert.equal(decision.json.error.code, "upstream_error");
        } finally {
            await proxy.start();
        }
        assert.equal((await call({path: "/chat/completions", body: chatBody()})).status, 200);
        const decision = await call({path: "/svc-1-decision/v1/decisions", body: {model: "svc-1-decision", input: "x", questions: [{type: "predicate", instructions: "?"}]}});
        assert.equal(decision.status, 200);
    });

    test("down at startup: the front starts, answers 502, and learns the engine's model and label method once it is up", async () => {
        await proxy.stop();
        let late: RunningUpstreamServer | undefined;
        try {
            late = await startUpstreamServer({host: "127.0.0.1", port: 0, upstream: {baseUrl: `${proxy.url}/v1`, tokenizerPath: modelPath}});
            assert.equal(late.facts, undefined);
            assert.match(late.decisions, /unavailable for now: .*cannot be reached/);
            const server = {url: late.url, apiKey: ""};
            assertApiError(await call({path: "/chat/completions", body: chatBody(), authorization: null}, server), 502, "upstream_error", "api_error");
            await proxy.start();
            assert.equal((await call({path: "/chat/completions", body: chatBody(), authorization: null}, server)).status, 200);
            const decision = await call({path: "/svc-1-decision/v1/decisions", body: {model: "svc-1-decision", input: "x", questions: [{type: "predicate", instructions: "?"}]}, authorization: null}, server);
            assert.equal(decision.status, 200, decision.text.slice(0, 300));
        } finally {
            await proxy.start();
            await late?.close();
        }
    });

    test("a client that leaves a stream half-read: the front lets go of the upstream, and the next request is answered", async () => {
        const controller = new AbortController();
        const stream = await client.chat.completions.create({...chatBody(), max_tokens: 2000, stream: true} as never, {signal: controller.signal}) as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>;
        for await (const chunk of stream) {
            if (chunk.choices[0]?.delta?.content) break;
        }
        controller.abort();
        await waitFor(() => front.upstream.active === 0, {timeoutMs: 5_000, what: "the upstream exchange to end"});
        assert.equal((await call({path: "/completions", body: {model: "svc-1", prompt: "Once", max_tokens: 3}})).status, 200);
        assert.equal((await call({path: "/chat/completions", body: chatBody()})).status, 200);
    });

    test("slow: the client's timeout cancels the upstream request", async () => {
        const cancelledBefore = proxy.cancelledPending;
        proxy.delayMs = 3_000;
        try {
            const impatient = new OpenAI({baseURL: `${front.url}/svc-1/v1`, apiKey: key, maxRetries: 0, timeout: 300});
            await assert.rejects(impatient.chat.completions.create(chatBody() as never), (error: Error) => error instanceof OpenAI.APIConnectionTimeoutError);
            // The front's fetch is aborted with the client's request, closing its connection to the engine.
            await waitFor(() => proxy.cancelledPending > cancelledBefore, {timeoutMs: 2_000, what: "the upstream request to be cancelled"});
            await waitFor(() => front.upstream.active === 0, {timeoutMs: 2_000, what: "the busy gauge to drop"});
        } finally {
            proxy.delayMs = 0;
        }
    });
});

describe("service side and command line", () => {
    test("workspace keys, credits and usage work the same in front of an upstream", async () => {
        const team = await openTeamStore();
        setTestPrices(team.store);
        const alpha = addWorkspace(team.store, {name: "alpha"});
        const metered = await startUpstreamServer({host: "127.0.0.1", port: 0, dataDir: team.dataDir, upstream: {baseUrl: `${proxy.url}/v1`, tokenizerPath: modelPath}});
        try {
            const server = {url: metered.url, apiKey: alpha.secret};
            assertApiError(await call({path: "/chat/completions", body: chatBody(), authorization: "Bearer ck_unknown"}, server), 401, "invalid_api_key", "authentication_error");
            const reply = await call({path: "/chat/completions", body: chatBody()}, server);
            assert.equal(reply.status, 200);
            const charge = team.store.db.prepare("SELECT * FROM usage ORDER BY id DESC LIMIT 1").get() as {model: string, output_tokens: number, uncached_input_tokens: number, cached_input_tokens: number};
            assert.equal(charge.model, "svc-1");
            assert.equal(charge.output_tokens, reply.json.usage.completion_tokens);
            assert.equal(charge.uncached_input_tokens + charge.cached_input_tokens, reply.json.usage.prompt_tokens);
        } finally {
            await metered.close();
            await team.remove();
        }
    });

    test("the upstream's key comes from the variable --upstream-key-env names; a key it refuses is a 502, not the caller's 401", async () => {
        const keyed = await startLlamaServer(modelPath, {args: ["-fa", "off", "--api-key", "up-secret"]});
        const team = await openTeamStore();
        process.env.SVC_UPSTREAM_TEST_KEY = "up-secret";
        const servers: RunningUpstreamServer[] = [];
        try {
            const args = parseServeArgs(["--port", "0", "--data-dir", team.dataDir, "--upstream", `${keyed.url}/v1`, "--upstream-key-env", "SVC_UPSTREAM_TEST_KEY"]);
            servers.push(await runUpstreamServe(args, args.upstream!));
            assert.equal(process.env.SVC_UPSTREAM_TEST_KEY, undefined, "read once, then removed from the environment");
            assert.equal((await call({path: "/chat/completions", body: chatBody(), authorization: null}, {url: servers[0].url, apiKey: ""})).status, 200);
            servers.push(await startUpstreamServer({host: "127.0.0.1", port: 0, upstream: {baseUrl: `${keyed.url}/v1`, apiKey: "wrong", model: "m"}}));
            assertApiError(await call({path: "/chat/completions", body: chatBody(), authorization: null}, {url: servers[1].url, apiKey: ""}), 502, "upstream_error", "api_error", "--upstream-key-env");
        } finally {
            delete process.env.SVC_UPSTREAM_TEST_KEY;
            for (const server of servers) await server.close();
            await team.remove();
            await keyed.close();
        }
    });

    test("serve --upstream: the local engine's model options are refused, the URL is checked", () => {
        assert.deepEqual(parseServeArgs(["--upstream", "http://vllm:8000/v1", "--upstream-model", "m", "--upstream-key-env", "VLLM_KEY"]).upstream,
            {baseUrl: "http://vllm:8000/v1", model: "m", keyEnv: "VLLM_KEY", tokenizerPath: undefined});
        assert.throws(() => parseServeArgs(["--upstream", "http://vllm:8000/v1", "--model", "x.gguf"]), (error: Error) => error instanceof UsageError && /--model .* does not apply/.test(error.message));
        assert.throws(() => parseServeArgs(["--upstream", "vllm:8000"]), UsageError);
        assert.throws(() => parseServeArgs(["--upstream-model", "m"]), /needs --upstream/);
        assert.throws(() => parseServeArgs(["--upstream", "http://h/v1", "--upstream-key-env", "sk-123"]), /environment variable's name/);
    });
});
