// Decision endpoints (spec 2.8-2.10, 4, 5, 7, 8) on the real local server and the project's tiny GGUF: every
// request limit at its edge on both endpoints (400 `invalid_request` with `param` on /v1/decisions, 422
// `detail` on /v1/systemone), error bodies, headers, auth, and which model serves which path. Raw HTTP, since
// an SDK hides status codes, headers and malformed bodies.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {pngHeader, toDataUrl} from "../fixtures/imageFixtures.ts";
import {limits} from "../../protocol/limits.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi, type ApiReply, type CallOptions} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {bodyWithRaw, nestedArraysText} from "../support/hostileJson.ts";

const apiKey = "ck_decisions_validation";
let server: TestServer;

before(async () => {
    server = await startTestServer({apiKeys: [apiKey]});
});
after(async () => {
    await server?.close();
});

type Endpoint = "decisions" | "systemone";
const endpoints: Endpoint[] = ["decisions", "systemone"];
const model = "svc-1-decision";

const post = (endpoint: Endpoint, body: unknown, options: Omit<CallOptions, "path" | "body"> = {}) =>
    callApi(server, {path: `/svc-1-decision/v1/${endpoint}`, body, ...options});

// ---- the same request in each endpoint's format ----

type Question = {kind: "yesno"} | {kind: "choice", options: string[]} | {kind: "score", levels: number};

function body(endpoint: Endpoint, questions: Question[], extra: {explain?: boolean} = {}): Record<string, unknown> {
    const x_svc = extra.explain ? {explain: true} : undefined;
    if (endpoint === "decisions") return {
        model,
        input: "A red cat.",
        questions: questions.map((question) => question.kind === "yesno"
            ? {type: "predicate", instructions: "Is it red?"}
            : question.kind === "choice"
                ? {type: "choice", instructions: "Which?", choices: question.options.map((value) => ({value}))}
                : {type: "score", instructions: "How red?", levels: Array.from({length: question.levels}, (_, level) => ({label: `L${level}`}))}),
        ...(x_svc ? {x_svc} : {})
    };
    return {
        model,
        state: "A red cat.",
        questions: Object.fromEntries(questions.map((question, index) => [`q${index}`, question.kind === "yesno"
            ? {type: "noul", instructions: "Is it red?"}
            : question.kind === "choice"
                ? {type: "choice", instructions: "Which?", criteria: Object.fromEntries(question.options.map((option) => [option, null]))}
                : {type: "score", instructions: "How red?", criteria: Array.from({length: question.levels}, (_, level) => `L${level}`)}])),
        ...(x_svc ? {x_svc} : {})
    };
}

const predicates = (count: number): Question[] => Array.from({length: count}, () => ({kind: "yesno"}));
const optionNames = (count: number) => Array.from({length: count}, (_, index) => `o${index}`);

// ---- assertions ----

/** /v1/decisions: 400 `invalid_request` (spec 7) with `param` naming the top-level field (null for the whole body) and a `ref`. */
function assertInvalidRequest(reply: ApiReply, param: string | null, messageIncludes?: string) {
    assertApiError(reply, 400, "invalid_request", "invalid_request_error", messageIncludes);
    assert.equal(reply.json.error.param, param, reply.json.error.message);
    assert.equal(typeof reply.json.error.ref, "string");
    assert.ok(reply.json.error.ref.length > 0);
}

/** /v1/systemone: 422 `{detail: [{loc, msg, type}]}` without the error envelope. */
function assertUnprocessable(reply: ApiReply, type: "value_error" | "json_invalid", {msg, loc}: {msg?: string, loc?: string} = {}) {
    assert.equal(reply.status, 422, reply.text.slice(0, 300));
    assert.match(reply.headers.get("content-type") ?? "", /application\/json/);
    assert.equal(reply.json.error, undefined, "a 422 carries no error envelope");
    const detail = reply.json.detail;
    assert.ok(Array.isArray(detail) && detail.length > 0, reply.text.slice(0, 300));
    for (const item of detail) {
        assert.ok(Array.isArray(item.loc) && item.loc.every((part: unknown) => typeof part === "string" || typeof part === "number"));
        assert.equal(typeof item.msg, "string");
        assert.equal(item.type, type);
    }
    if (msg != null) assert.ok(detail.some((item: any) => item.msg.includes(msg)), `no msg names ${JSON.stringify(msg)}: ${reply.text.slice(0, 300)}`);
    if (loc != null) assert.ok(detail.some((item: any) => item.loc.includes(loc)), `no loc holds ${JSON.stringify(loc)}: ${reply.text.slice(0, 300)}`);
}

/** The limit refusal of each endpoint (spec 8): 400 invalid_request on decisions, 422 value_error on systemone. */
function assertRefused(endpoint: Endpoint, reply: ApiReply, param: string | null, messageIncludes: string) {
    if (endpoint === "decisions") assertInvalidRequest(reply, param, messageIncludes);
    else assertUnprocessable(reply, "value_error", {msg: messageIncludes, ...(param != null ? {loc: param} : {})});
}

/** 200 with one answer per question, each distribution summing to exactly 1.00 in hundredths. */
function assertAnswered(endpoint: Endpoint, reply: ApiReply, questionCount: number) {
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    const answers = endpoint === "decisions" ? reply.json.answers : Object.values(reply.json.answers);
    assert.equal(answers.length, questionCount);
    for (const answer of answers as any[]) {
        if (answer.type === "predicate" || answer.type === "noul") continue;
        const values: number[] = endpoint === "decisions" ? answer.probabilities.map((entry: any) => entry.probability) : Object.values(answer.probabilities);
        assert.equal(values.reduce((sum, value) => sum + Math.round(value * 100), 0), 100);
    }
    return answers as any[];
}

// ---- limits at their edges ----

describe("questions per request (spec 8: 512; 64 with x_svc.explain)", () => {
    for (const endpoint of endpoints) {
        test(`${endpoint}: 512 questions are answered, 513 are refused`, async () => {
            assertAnswered(endpoint, await post(endpoint, body(endpoint, predicates(limits.questionsPerRequest))), 512);
            assertRefused(endpoint, await post(endpoint, body(endpoint, predicates(513))), "questions", "512");
        });

        test(`${endpoint}: 64 questions with explain are answered and explained, 65 are refused`, async () => {
            const reply = await post(endpoint, body(endpoint, predicates(limits.questionsPerRequestWithExplain), {explain: true}));
            assertAnswered(endpoint, reply, 64);
            assert.equal(Object.keys(reply.json.x_svc.explanations).length, 64);
            assertRefused(endpoint, await post(endpoint, body(endpoint, predicates(65), {explain: true})), "questions", "64");
            // 65 without explain is fine: the lower maximum belongs to explain only.
            assertAnswered(endpoint, await post(endpoint, body(endpoint, predicates(65))), 65);
        });

        test(`${endpoint}: zero questions are refused`, async () => {
            assertRefused(endpoint, await post(endpoint, body(endpoint, [])), "questions", "at least one");
        });
    }
});

describe("options per choice question (spec 8: 512) and levels per score question (64)", () => {
    for (const endpoint of endpoints) {
        test(`${endpoint}: 512 options are answered, 513 are refused`, async () => {
            const [answer] = assertAnswered(endpoint, await post(endpoint, body(endpoint, [{kind: "choice", options: optionNames(512)}])), 1);
            assert.equal(Object.keys(answer.probabilities).length, 512);
            assertRefused(endpoint, await post(endpoint, body(endpoint, [{kind: "choice", options: optionNames(513)}])), "questions", "512");
        });

        test(`${endpoint}: 64 levels are answered, 65 are refused`, async () => {
            const [answer] = assertAnswered(endpoint, await post(endpoint, body(endpoint, [{kind: "score", levels: 64}])), 1);
            assert.equal(Object.keys(answer.probabilities).length, 64);
            assert.ok(answer.score >= 0 && answer.score <= 63);
            assertRefused(endpoint, await post(endpoint, body(endpoint, [{kind: "score", levels: 65}])), "questions", "64");
        });

        test(`${endpoint}: a choice question with one choice must hold at least two choices; a score with one level two levels`, async () => {
            assertRefused(endpoint, await post(endpoint, body(endpoint, [{kind: "choice", options: ["only"]}])), "questions", "must hold at least two choices");
            assertRefused(endpoint, await post(endpoint, body(endpoint, [{kind: "score", levels: 1}])), "questions", "must hold at least two levels");
            assertAnswered(endpoint, await post(endpoint, body(endpoint, [{kind: "choice", options: ["a", "b"]}, {kind: "score", levels: 2}])), 2);
        });
    }
});

describe("images (spec 8: 8 per request)", () => {
    const image = toDataUrl(pngHeader(4, 3));
    const withImages = (endpoint: Endpoint, count: number) => {
        const request = body(endpoint, predicates(1));
        if (endpoint === "decisions")
            request.input = [{role: "user", content: [
                {type: "input_text", text: "Which image is red?"},
                ...Array.from({length: count}, () => ({type: "input_image", image_url: image, detail: "auto"}))
            ]}];
        else request.x_svc = {images: Object.fromEntries(Array.from({length: count}, (_, index) => [`image_${index + 1}`, image]))};
        return request;
    };

    for (const endpoint of endpoints) {
        test(`${endpoint}: 8 images pass validation and reach the text-only model (400 request_rejected), 9 are a limit error`, async () => {
            const reply = await post(endpoint, withImages(endpoint, limits.imagesPerRequest));
            assertApiError(reply, 400, "request_rejected", "invalid_request_error", "cannot read images");
            assertRefused(endpoint, await post(endpoint, withImages(endpoint, 9)), endpoint === "decisions" ? "input" : "x_svc", "8");
        });
    }
});

describe("JSON values per body (spec 8: 100,000)", () => {
    /** Every value node: objects, arrays, strings, numbers, booleans, null (object keys are names, not values). */
    const countValues = (value: unknown): number => value !== null && typeof value === "object"
        ? 1 + Object.values(value).reduce((sum: number, item) => sum + countValues(item), 0)
        : 1;

    // Empty content-part lists add three values per message (object, role, content) and no text, so even
    // 100,000 values make a prompt small enough to answer.
    const decisionsWithValues = (total: number) => {
        const request: Record<string, unknown> = {model, input: [{role: "user", content: "A red cat."}], questions: [{type: "predicate", instructions: "Is it red?"}]};
        const missing = total - countValues(request);
        (request.input as unknown[]).push(...Array.from({length: Math.floor(missing / 3)}, () => ({role: "user", content: []})));
        if (missing % 3 >= 1) request.safety_identifier = "user-1";
        if (missing % 3 === 2) (request.questions as any[])[0].name = "red";
        assert.equal(countValues(request), total);
        return request;
    };
    // On systemone every value is state the model has to read; 100,000 of them pass the value limit and are then
    // refused for the context (400 request_rejected), not as a limit error.
    const systemoneWithValues = (total: number) => {
        const request = {model, state: [] as number[], questions: {red: {type: "noul", instructions: "Is it red?"}}};
        const base = countValues(request);
        request.state = Array.from({length: total - base}, (_, index) => index % 10);
        assert.equal(countValues(request), total);
        return request;
    };

    test("decisions: 100,000 values are answered, 100,001 are refused with param null", async () => {
        assertAnswered("decisions", await post("decisions", decisionsWithValues(limits.jsonValuesPerRequest)), 1);
        assertInvalidRequest(await post("decisions", decisionsWithValues(100_001)), null, "100,000 JSON values");
    });

    test("systemone: 100,000 values pass the limit (the context then refuses them), 100,001 are a 422", async () => {
        const reply = await post("systemone", systemoneWithValues(limits.jsonValuesPerRequest));
        assertApiError(reply, 400, "request_rejected", "invalid_request_error", "context");
        assertUnprocessable(await post("systemone", systemoneWithValues(100_001)), "value_error", {msg: "100,000 JSON values"});
    });
});

describe("body size (spec 8: 8 MiB on decision endpoints)", () => {
    /** The request padded with trailing whitespace (not a JSON value) to exactly `bytes`. */
    const padded = (request: unknown, bytes: number) => {
        const text = JSON.stringify(request);
        return text + " ".repeat(bytes - Buffer.byteLength(text));
    };

    for (const endpoint of endpoints) {
        test(`${endpoint}: a body of exactly 8 MiB is read, one byte more is 413 payload_too_large`, async () => {
            const request = body(endpoint, predicates(1));
            assertAnswered(endpoint, await post(endpoint, padded(request, limits.decisionBodyBytes)), 1);
            assertApiError(await post(endpoint, padded(request, limits.decisionBodyBytes + 1)), 413, "payload_too_large");
        });
    }
});

// ---- field rules ----

describe("request body rules", () => {
    test("malformed JSON: 400 with param null on decisions, 422 json_invalid on systemone", async () => {
        const broken = "{\"model\": \"svc-1-decision\", \"questions\": [";
        assertInvalidRequest(await post("decisions", broken), null);
        assertUnprocessable(await post("systemone", broken), "json_invalid");
        assertInvalidRequest(await post("decisions", "[1, 2]"), null, "object");
        assertUnprocessable(await post("systemone", "\"text\""), "value_error");
    });

    for (const endpoint of endpoints) {
        test(`${endpoint}: unknown top-level fields, stream included, are refused`, async () => {
            for (const field of ["stream", "temperature", "messages"])
                assertRefused(endpoint, await post(endpoint, {...body(endpoint, predicates(1)), [field]: false}), field, field);
            const request = body(endpoint, predicates(1));
            request.x_svc = {explain: false, verbose: true};
            assertRefused(endpoint, await post(endpoint, request), "x_svc", "verbose");
        });

        test(`${endpoint}: a model other than svc-1-decision, or none, is refused`, async () => {
            for (const wrong of ["svc-1", "svc-1-decision-2", 7])
                assertRefused(endpoint, await post(endpoint, {...body(endpoint, predicates(1)), model: wrong}), "model", "svc-1-decision");
            const {model: _model, ...withoutModel} = body(endpoint, predicates(1));
            assertRefused(endpoint, await post(endpoint, withoutModel), "model", "model");
        });

        test(`${endpoint}: a model nested 5,000 deep is the endpoint's refusal, not a 500`, async () => {
            const text = bodyWithRaw(body(endpoint, predicates(1)), model, nestedArraysText(5_000));
            assertRefused(endpoint, await post(endpoint, text), "model", "got a value of type array");
        });

        test(`${endpoint}: a question needs a known type`, async () => {
            const request = body(endpoint, predicates(1));
            if (endpoint === "decisions") request.questions = [{type: "noul", instructions: "Is it red?"}];
            else request.questions = {q: {type: "predicate", instructions: "Is it red?"}};
            assertRefused(endpoint, await post(endpoint, request), "questions", "type");
        });
    }

    test("decisions: names are optional, nonempty and unique; echoed, null when absent", async () => {
        const question = (name?: string) => ({type: "predicate", instructions: "Is it red?", ...(name === undefined ? {} : {name})});
        assertInvalidRequest(await post("decisions", {model, input: "x", questions: [question("a"), question("a")]}), "questions", "unique");
        assertInvalidRequest(await post("decisions", {model, input: "x", questions: [question("")]}), "questions", "empty");
        const reply = await post("decisions", {model, input: "x", questions: [question("a"), question(), question("b")]});
        assert.deepEqual(assertAnswered("decisions", reply, 3).map((answer) => answer.name), ["a", null, "b"]);
    });

    test("systemone: question and option names must be nonempty", async () => {
        assertUnprocessable(await post("systemone", {model, state: "x", questions: {"": {type: "noul"}}}), "value_error", {msg: "empty"});
        assertUnprocessable(await post("systemone", {model, state: "x", questions: {q: {type: "choice", criteria: {"": null, b: null}}}}), "value_error", {msg: "empty"});
    });

    test("decisions: choice values are unique; true and \"true\" (or false and \"false\") cannot share a question; types survive", async () => {
        const choice = (...values: unknown[]) => ({model, input: "x", questions: [{type: "choice", instructions: "Which?", choices: values.map((value) => ({value}))}]});
        assertInvalidRequest(await post("decisions", choice("a", "a")), "questions", "unique");
        assertInvalidRequest(await post("decisions", choice(true, true)), "questions", "unique");
        assertInvalidRequest(await post("decisions", choice(true, "true")), "questions", "\"true\"");
        assertInvalidRequest(await post("decisions", choice("false", "maybe", false)), "questions", "\"false\"");
        assertInvalidRequest(await post("decisions", choice("a", 1)), "questions", "string or a boolean");
        const [answer] = assertAnswered("decisions", await post("decisions", choice(true, "false", "TRUE")), 1);
        assert.deepEqual(answer.probabilities.map((entry: any) => entry.value), [true, "false", "TRUE"]);
        assert.ok([true, "false", "TRUE"].includes(answer.choice));
    });

    test("decisions: other message roles and non-data image URLs are unsupported", async () => {
        const request = (input: unknown) => ({model, input, questions: [{type: "predicate", instructions: "Is it red?"}]});
        assertInvalidRequest(await post("decisions", request([{role: "system", content: "x"}])), "input", "user");
        assertInvalidRequest(await post("decisions", request([{role: "user", content: [{type: "input_image", image_url: "https://example.com/a.png"}]}])), "input");
        assertInvalidRequest(await post("decisions", request([{role: "user", content: [{type: "input_file", file_id: "file_1"}]}])), "input");
    });
});

// ---- auth, headers, paths ----

describe("authentication, CORS, trace ids and Server-Timing (spec 4, 5)", () => {
    for (const endpoint of endpoints) {
        test(`${endpoint}: a missing or unknown key is 401 invalid_api_key`, async () => {
            assertApiError(await post(endpoint, body(endpoint, predicates(1)), {authorization: null}), 401, "invalid_api_key", "authentication_error");
            assertApiError(await post(endpoint, body(endpoint, predicates(1)), {authorization: "Bearer ck_wrong"}), 401, "invalid_api_key", "authentication_error");
        });

        test(`${endpoint}: a success carries Server-Timing, CORS headers and the echoed trace id; an error the trace id`, async () => {
            const reply = await post(endpoint, body(endpoint, predicates(1)), {headers: {"X-Client-Trace-Id": `trace-${endpoint}`}});
            assert.equal(reply.status, 200);
            assert.match(reply.headers.get("server-timing") ?? "", /dur=\d+(\.\d+)?/);
            assert.equal(reply.headers.get("x-client-trace-id"), `trace-${endpoint}`);
            assert.equal(reply.headers.get("access-control-allow-origin"), "*");
            const exposed = (reply.headers.get("access-control-expose-headers") ?? "").toLowerCase();
            assert.ok(exposed.includes("server-timing") && exposed.includes("x-client-trace-id"), exposed);

            const failed = await post(endpoint, {model}, {headers: {"X-Client-Trace-Id": "trace-error"}});
            assert.ok(failed.status === 400 || failed.status === 422);
            assert.equal(failed.headers.get("x-client-trace-id"), "trace-error");
            assert.equal(failed.headers.get("access-control-allow-origin"), "*");
        });

        test(`${endpoint}: the preflight is answered without a key`, async () => {
            const response = await fetch(`${server.url}/svc-1-decision/v1/${endpoint}`, {
                method: "OPTIONS",
                headers: {"Origin": "https://app.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type"}
            });
            assert.ok(response.status === 204 || response.status === 200, `status ${response.status}`);
            assert.equal(response.headers.get("access-control-allow-origin"), "*");
            assert.ok((response.headers.get("access-control-allow-methods") ?? "").toUpperCase().includes("POST"));
        });
    }
});

describe("which model serves which path (spec 1 rule 3)", () => {
    test("the decision endpoints do not exist under svc-1", async () => {
        for (const endpoint of endpoints)
            assertApiError(await callApi(server, {path: `/svc-1/v1/${endpoint}`, body: {...body(endpoint, predicates(1)), model: "svc-1"}}), 404, "not_found");
        assertApiError(await callApi(server, {path: "/svc-1/v1/v1/decisions", body: body("decisions", predicates(1))}), 404, "not_found");
    });

    test("the chat-family endpoints do not exist under svc-1-decision", async () => {
        const chat = {model, messages: [{role: "user", content: "hi"}], max_tokens: 1};
        for (const path of ["/v1/chat/completions", "/chat/completions", "/v1/responses", "/completions"])
            assertApiError(await callApi(server, {path: `/svc-1-decision${path}`, body: chat}), 404, "not_found");
    });

    test("an unknown model segment is 404", async () => {
        assertApiError(await callApi(server, {path: "/svc-2-decision/v1/decisions", body: body("decisions", predicates(1))}), 404, "not_found");
    });
});
