// Images on the real local server with a vision model: the project's tiny text model plus its tiny
// random-weight projector (test/fixtures/gguf/buildTinyMmproj.ts), read by @fugood/llama.node's libmtmd. Chat,
// Responses and decisions answer with images; image tokens count as input; bad images keep the spec's errors.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import {ensureTinyVisionGguf} from "../fixtures/gguf/ensureTinyVisionGguf.ts";
import {tinyMmprojImageTokens} from "../fixtures/gguf/buildTinyMmproj.ts";
import {checkerboardPng, encodeWebp, gradientPixel, gradientPng} from "../fixtures/images/encodePng.ts";
import {gifHeader, pngHeader, webpLossyHeader} from "../fixtures/imageFixtures.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {resolveServeModel} from "../../native/cli/serveArgs.ts";

let server: TestServer;
let decisions: OpenAI;
before(async () => {
    const {modelPath, mmprojPath} = await ensureTinyVisionGguf();
    server = await startTestServer({modelPath, mmprojPath, contextSize: 1024});
    decisions = new OpenAI({baseURL: `${server.url}/svc-1-decision/v1`, apiKey: "x", maxRetries: 0, timeout: 60_000});
});
after(async () => {
    await server?.close();
});

const dataUrl = (bytes: Uint8Array, mediaType = "image/png") => `data:${mediaType};base64,${Buffer.from(bytes).toString("base64")}`;
const gradient = dataUrl(gradientPng());
const checkerboard = dataUrl(checkerboardPng());
const userTurn = (urls: string[], text = "What is in this picture?") =>
    [{role: "user" as const, content: [...urls.map((url) => ({type: "image_url" as const, image_url: {url}})), {type: "text" as const, text}]}];
const decide = (endpoint: "decisions" | "systemone", body: object) => callApi(server, {path: `/svc-1-decision/v1/${endpoint}`, body: {model: "svc-1-decision", ...body}});
const imageQuestion = {type: "predicate", instructions: "Is the picture mostly blue?"};

describe("chat and Responses with images", () => {
    test("a chat with an image answers 200, counting the image's tokens as input", async () => {
        const text = await server.client.chat.completions.create({model: "svc-1", messages: userTurn([]), max_tokens: 3, temperature: 0});
        const seen = await server.client.chat.completions.create({model: "svc-1", messages: userTurn([gradient]), max_tokens: 3, temperature: 0});
        assert.equal(seen.choices[0].message.role, "assistant");
        assert.equal(typeof seen.choices[0].message.content, "string");
        assert.ok(seen.usage!.completion_tokens >= 1 && seen.usage!.completion_tokens <= 3);
        // The same turn without the image (read by node-llama-cpp) is the image's tokens shorter, give or take the
        // marker's line break: spec 2.3, images are input tokens.
        const added = seen.usage!.prompt_tokens - text.usage!.prompt_tokens;
        assert.ok(added >= tinyMmprojImageTokens && added <= tinyMmprojImageTokens + 2, `the image added ${added} input tokens`);
        const two = await server.client.chat.completions.create({model: "svc-1", messages: userTurn([gradient, checkerboard]), max_tokens: 1});
        assert.ok(two.usage!.prompt_tokens >= seen.usage!.prompt_tokens + tinyMmprojImageTokens);
    });

    test("streamed with usage, and on Responses with input_image (detail has no effect)", async () => {
        const stream = await server.client.chat.completions.create({model: "svc-1", messages: userTurn([checkerboard]), max_tokens: 4, stream: true, stream_options: {include_usage: true}});
        let content = "";
        let promptTokens = 0;
        for await (const chunk of stream) {
            content += chunk.choices[0]?.delta.content ?? "";
            promptTokens = chunk.usage?.prompt_tokens ?? promptTokens;
        }
        assert.ok(promptTokens > tinyMmprojImageTokens);
        assert.equal(typeof content, "string");
        const response = await server.client.responses.create({
            model: "svc-1", max_output_tokens: 4,
            input: [{role: "user", content: [{type: "input_text", text: "Describe it."}, {type: "input_image", image_url: gradient, detail: "high"}]}]
        });
        assert.equal(response.status, "completed");
        assert.ok(response.usage!.input_tokens > tinyMmprojImageTokens);
    });

    test("a GIF (first frame) is read; a WebP is read as the PNG of the same pixels; a WebP with no pixels is a 400", async () => {
        // A 1x1 GIF with one frame: real pixel data, unlike imageFixtures' header-only ones.
        const gif = Uint8Array.from(Buffer.from("R0lGODlhAQABAIAAAP8AAP///ywAAAAAAQABAAACAkQBADs=", "base64"));
        const reply = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: userTurn([dataUrl(gif, "image/gif")]), max_tokens: 1}});
        assert.equal(reply.status, 200, reply.text);
        // libmtmd's own decoder reads no WebP: the engine decodes it (native/vision/decodableImage.ts). Lossless, so
        // the model sees exactly the gradient's pixels: the same answer as the PNG, to the last digit.
        const webp = dataUrl(await encodeWebp(32, 32, gradientPixel), "image/webp");
        const ask = (url: string) => decide("decisions", {input: [{role: "user", content: [{type: "input_image", image_url: url}]}], questions: [imageQuestion]});
        const [fromWebp, fromPng, fromOther] = [await ask(webp), await ask(gradient), await ask(checkerboard)];
        assert.equal(fromWebp.status, 200, fromWebp.text);
        assert.equal(fromWebp.json.answers[0].probability, fromPng.json.answers[0].probability);
        assert.notEqual(fromWebp.json.answers[0].probability, fromOther.json.answers[0].probability);
        const chat = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: userTurn([webp]), max_tokens: 1}});
        assert.equal(chat.status, 200, chat.text);
        const headerOnly = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: userTurn([dataUrl(webpLossyHeader(8, 8), "image/webp")]), max_tokens: 1}});
        assertApiError(headerOnly, 400, "invalid_request", "invalid_request_error", "could not be decoded");
        assertApiError(await ask(dataUrl(webpLossyHeader(8, 8), "image/webp")), 400, "request_rejected", "invalid_request_error", "could not be decoded");
    });

    test("bad images keep the spec's 400s: corrupt pixels, a 9th image, more than 25 MP from the header", async () => {
        const truncated = dataUrl(gradientPng().slice(0, 60));
        assertApiError(await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: userTurn([truncated]), max_tokens: 1}}),
            400, "invalid_request", "invalid_request_error", "could not be decoded");
        assertApiError(await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: userTurn([dataUrl(gifHeader(4, 4), "image/gif")]), max_tokens: 1}}),
            400, "invalid_request", "invalid_request_error", "could not be decoded");
        // The engine still answers after refusing them.
        const fine = await server.client.chat.completions.create({model: "svc-1", messages: userTurn([gradient]), max_tokens: 1});
        assert.equal(fine.object, "chat.completion");

        const nine = {input: [{role: "user", content: [...Array.from({length: 9}, () => ({type: "input_image", image_url: gradient})), {type: "input_text", text: "x"}]}], questions: [imageQuestion]};
        assertApiError(await decide("decisions", nine), 400, "invalid_request", "invalid_request_error", "image");
        const huge = {input: [{role: "user", content: [{type: "input_image", image_url: dataUrl(pngHeader(5001, 5001))}]}], questions: [imageQuestion]};
        assertApiError(await decide("decisions", huge), 400, "invalid_request", "invalid_request_error", "pixels");
    });

    test("tools, JSON mode and logprobs with an image are refused with a 400, not ignored", async () => {
        const reply = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: userTurn([gradient]), max_tokens: 1, logprobs: true, top_logprobs: 2}});
        assertApiError(reply, 400, "invalid_request", "invalid_request_error", "cannot be combined with images");
    });
});

describe("decisions with images", () => {
    test("a decision about an image answers probabilities, different for different images, with image tokens as input", async () => {
        const ask = (url: string) => decisions.post("/decisions", {body: {model: "svc-1-decision",
            input: [{role: "user", content: [{type: "input_image", image_url: url}, {type: "input_text", text: "A picture."}]}],
            questions: [imageQuestion, {type: "choice", instructions: "Which colour dominates?", choices: [{value: "red"}, {value: "blue"}, {value: "white"}]}]}}) as Promise<any>;
        const [first, second] = [await ask(gradient), await ask(checkerboard)];
        for (const reply of [first, second]) {
            assert.ok(reply.answers[0].probability > 0 && reply.answers[0].probability < 1);
            const sum = reply.answers[1].probabilities.reduce((total: number, entry: {probability: number}) => total + entry.probability, 0);
            assert.ok(Math.abs(sum - 1) < 1e-6, `probabilities sum to ${sum}`);
            assert.ok(reply.usage.input_tokens > tinyMmprojImageTokens);
        }
        assert.notEqual(first.answers[0].probability, second.answers[0].probability, "the image changes the model's answer distribution");
    });

    test("a question about image_2 reads the second image: swapping the images changes the answer; each adds its tokens", async () => {
        const ask = (urls: string[]) => decide("decisions", {
            input: [{role: "user", content: [...urls.map((url) => ({type: "input_image", image_url: url})), {type: "input_text", text: "Two pictures."}]}],
            questions: [{type: "predicate", instructions: "Is image_2 a checkerboard?"}]
        });
        const [a, b] = [await ask([gradient, checkerboard]), await ask([checkerboard, gradient])];
        assert.equal(a.status, 200, a.text);
        assert.equal(b.status, 200, b.text);
        assert.notEqual(a.json.answers[0].probability, b.json.answers[0].probability, "the order of the images matters");
        const one = await ask([gradient]);
        assert.equal(one.status, 200, one.text);
        for (const reply of [a, b]) {
            assert.ok(reply.json.answers[0].probability > 0 && reply.json.answers[0].probability < 1);
            assert.ok(reply.json.usage.input_tokens >= one.json.usage.input_tokens + tinyMmprojImageTokens, "the second image is read as input tokens");
        }
    });

    test("/v1/systemone reads x_svc.images; max_soft_tokens below the projector's count is refused; corrupt images are 400 / 422", async () => {
        const state = {note: "see the picture"};
        const ok = await decide("systemone", {state, questions: {blue: {type: "noul", instructions: "Is the picture blue?"}}, x_svc: {images: {photo: checkerboard}, max_soft_tokens: tinyMmprojImageTokens}});
        assert.equal(ok.status, 200, ok.text);
        assert.ok(ok.json.answers.blue.noul > 0 && ok.json.answers.blue.noul < 1);
        const tooFew = await decide("systemone", {state, questions: {blue: {type: "noul"}}, x_svc: {images: {photo: checkerboard}, max_soft_tokens: tinyMmprojImageTokens - 1}});
        assert.equal(tooFew.status, 422, tooFew.text);
        assert.match(JSON.stringify(tooFew.json.detail), /max_soft_tokens/);
        const corrupt = dataUrl(gradientPng().slice(0, 60));
        const refused = await decide("systemone", {state, questions: {blue: {type: "noul"}}, x_svc: {images: {photo: corrupt}}});
        assert.equal(refused.status, 422, refused.text);
        assertApiError(await decide("decisions", {input: [{role: "user", content: [{type: "input_image", image_url: corrupt}]}], questions: [imageQuestion]}),
            400, "request_rejected", "invalid_request_error", "could not be decoded");
    });
});

test("serve --model <file> finds the projector beside it by name; --mmproj without --model is a usage error", async () => {
    const {modelPath, mmprojPath} = await ensureTinyVisionGguf();
    const resolved = await resolveServeModel({modelPath});
    assert.equal(resolved.options.mmprojPath, mmprojPath);
    assert.match(resolved.note ?? "", /vision projector/);
    assert.equal((await resolveServeModel({modelPath, mmprojPath: "/elsewhere/p.gguf"})).options.mmprojPath, "/elsewhere/p.gguf");
    await assert.rejects(resolveServeModel({mmprojPath}), /--mmproj is the projector of the --model file/);
});
