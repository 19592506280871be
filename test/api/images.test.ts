// Image parts (spec 2.1, 2.4) on the real local server: only inline data URLs holding a real image header are
// accepted, and since node-llama-cpp cannot read images the local engine then answers a clear 400, never a 500,
// before anything is generated.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {BadRequestError} from "openai";
import {gifHeader, jpegHeader, pngHeader, webpLossyHeader} from "../fixtures/imageFixtures.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {sequenceMeters} from "./utils/sequenceMeters.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

let server: TestServer;
before(async () => {
    server = await startTestServer();
});
after(async () => {
    await server?.close();
});

const dataUrl = (mediaType: string, bytes: Uint8Array) => `data:${mediaType};base64,${Buffer.from(bytes).toString("base64")}`;
const images = {
    png: dataUrl("image/png", pngHeader(8, 8)),
    jpeg: dataUrl("image/jpeg", jpegHeader(8, 8)),
    gif: dataUrl("image/gif", gifHeader(8, 8)),
    webp: dataUrl("image/webp", webpLossyHeader(8, 8))
};
const chatWithImage = (url: string) => ({
    model: "svc-1",
    messages: [{role: "user", content: [{type: "text", text: "What is in this picture?"}, {type: "image_url", image_url: {url}}]}],
    max_tokens: 4
});
const responseWithImage = (image_url: string) => ({
    model: "svc-1",
    input: [{role: "user", content: [{type: "input_text", text: "What is in this picture?"}, {type: "input_image", image_url, detail: "auto"}]}],
    max_output_tokens: 4
});
const chat = (body: unknown) => callApi(server, {path: "/chat/completions", body});
const respond = (body: unknown) => callApi(server, {path: "/responses", body});

describe("a readable inline image", () => {
    test("is refused on chat and Responses with a 400 saying the loaded model cannot read images, before generating", async () => {
        const before = await sequenceMeters(server.engine);
        for (const url of Object.values(images)) {
            assertApiError(await chat(chatWithImage(url)), 400, "invalid_request", "invalid_request_error", "the loaded model cannot read images");
            assertApiError(await respond(responseWithImage(url)), 400, "invalid_request", "invalid_request_error", "the loaded model cannot read images");
        }
        assert.deepEqual(await sequenceMeters(server.engine), before, "nothing was evaluated");
    });

    test("the openai client sees a BadRequestError, on streaming requests too", async () => {
        await assert.rejects(server.client.chat.completions.create(chatWithImage(images.png) as any), (error) => {
            assert.ok(error instanceof BadRequestError);
            assert.match(error.message, /cannot read images/);
            return true;
        });
        await assert.rejects(server.client.responses.create({...responseWithImage(images.jpeg), stream: true} as any), BadRequestError);
    });
});

describe("image URLs that are refused as such", () => {
    test("any URL other than an inline data URL: only inline data URLs are accepted", async () => {
        for (const url of ["https://example.com/cat.png", "http://127.0.0.1/cat.png", "file:///tmp/cat.png", "cat.png"]) {
            const reply = await chat(chatWithImage(url));
            assertApiError(reply, 400, "invalid_request", "invalid_request_error", "only inline data URLs");
            assert.match(reply.json.error.message, /^messages\[0\]\.content\[1\]\.image_url\.url: /);
            assertApiError(await respond(responseWithImage(url)), 400, "invalid_request", "invalid_request_error", "only inline data URLs");
        }
    });

    test("a data URL that is not a readable image", async () => {
        const notAnImage = dataUrl("image/png", new TextEncoder().encode("just some text, not a PNG"));
        assertApiError(await chat(chatWithImage(notAnImage)), 400, "invalid_request", "invalid_request_error", "does not hold a readable image");
        assertApiError(await respond(responseWithImage(notAnImage)), 400, "invalid_request", "invalid_request_error", "does not hold a readable image");
        assertApiError(await chat(chatWithImage(dataUrl("text/plain", pngHeader(2, 2)))), 400, "invalid_request", "invalid_request_error", "must hold an image");
        assertApiError(await chat(chatWithImage("data:image/png;base64,@@@@")), 400, "invalid_request", "invalid_request_error", "only inline data URLs");
        assertApiError(await chat(chatWithImage("data:image/png;base64,iVBORw0KG")), 400, "invalid_request", "invalid_request_error", "invalid base64");
    });

    test("a Responses input_image without detail is a shape error, not an image error", async () => {
        const reply = await respond({model: "svc-1", input: [{role: "user", content: [{type: "input_image", image_url: images.png}]}]});
        assertApiError(reply, 400, "invalid_request", "invalid_request_error", "does not match the input_image part shape");
        assert.ok(!reply.json.error.message.includes("cannot read images"));
    });
});
