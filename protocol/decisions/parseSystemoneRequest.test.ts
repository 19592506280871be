import {test} from "node:test";
import assert from "node:assert/strict";
import type {FieldPath} from "../validation.ts";
import {countJsonValues} from "./parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "./parseSystemoneRequest.ts";
import {pngHeader, toDataUrl, webpLossyHeader} from "../../test/fixtures/imageFixtures.ts";
import {expectRejection} from "../../test/support/expectRejection.ts";
import {nestedArrays, nestedArraysText} from "../../test/support/hostileJson.ts";

type Body = Record<string, unknown>;

const noul = {type: "noul", instructions: "Is it urgent?"};
const base = (extra: Body = {}): Body => ({model: "svc-1-decision", state: "a ticket", questions: {urgent: noul}, ...extra});
const manyQuestions = (count: number) => Object.fromEntries(Array.from({length: count}, (_, index) => [`q${index}`, noul]));
const options = (count: number) => Object.fromEntries(Array.from({length: count}, (_, index) => [`option ${index}`, null]));
const images = (urls: string[]) => Object.fromEntries(urls.map((url, index) => [`photo${index}`, url]));

const rejects = (body: unknown, path: FieldPath, messagePart: string, code?: string) =>
    expectRejection(parseSystemoneRequest, body, path, messagePart, code);

test("a full request normalises to text, named images and typed questions", () => {
    const request = parseSystemoneRequest({
        model: "svc-1-decision",
        state: {ticket: {body: "It broke", id: 7}, attachments: ["photo"]},
        questions: {
            urgent: {type: "noul", instructions: "Is it urgent?", criteria: {true: "needs action today", false: null}},
            team: {type: "choice", instructions: "Route it.", criteria: {billing: "money matters", tech: null}},
            severity: {type: "score", criteria: ["minor", "major", "critical"]}
        },
        x_svc: {explain: true, images: {photo: toDataUrl(webpLossyHeader(120, 90), "image/webp")}, max_soft_tokens: 70}
    });
    assert.equal(request.endpoint, "systemone");
    assert.equal(request.text, "{\"attachments\":[\"photo\"],\"ticket\":{\"body\":\"It broke\",\"id\":7}}");
    assert.deepEqual(request.images.map(({name, mediaType, width, height}) => ({name, mediaType, width, height})), [{name: "photo", mediaType: "image/webp", width: 120, height: 90}]);
    assert.equal(request.explain, true);
    assert.equal(request.maxSoftTokens, 70);
    assert.deepEqual(request.questions, [
        {index: 0, name: "urgent", instructions: "Is it urgent?", kind: "yesno", options: [{value: true, text: "yes", description: "needs action today"}, {value: false, text: "no"}]},
        {index: 1, name: "team", instructions: "Route it.", kind: "choice", options: [{value: "billing", text: "billing", description: "money matters"}, {value: "tech", text: "tech"}]},
        {index: 2, name: "severity", instructions: "", kind: "score", options: [{value: 0, text: "minor"}, {value: 1, text: "major"}, {value: 2, text: "critical"}]}
    ]);
});

test("a string state is read as is; other JSON values serialise with sorted keys", () => {
    assert.equal(parseSystemoneRequest(base()).text, "a ticket");
    assert.equal(parseSystemoneRequest(base({state: 42})).text, "42");
    assert.equal(parseSystemoneRequest(base({state: null})).text, "null");
    assert.equal(parseSystemoneRequest(base({state: {b: 1, a: 2}})).text, parseSystemoneRequest(base({state: {a: 2, b: 1}})).text);
    const {state: _state, ...noState} = base();
    rejects(noState, ["state"], "is required");
});

test("512 questions pass, 513 are rejected; with explain 64 pass and 65 are rejected", () => {
    assert.equal(parseSystemoneRequest(base({questions: manyQuestions(512)})).questions.length, 512);
    rejects(base({questions: manyQuestions(513)}), ["questions"], "at most 512");
    assert.equal(parseSystemoneRequest(base({questions: manyQuestions(64), x_svc: {explain: true}})).questions.length, 64);
    rejects(base({questions: manyQuestions(65), x_svc: {explain: true}}), ["questions"], "at most 64");
    rejects(base({questions: {}}), ["questions"], "at least one question");
    rejects(base({questions: [noul]}), ["questions"], "must be an object");
});

test("512 options pass, 513 are rejected, one option must hold at least two", () => {
    const choice = (count: number) => base({questions: {pick: {type: "choice", instructions: "Pick", criteria: options(count)}}});
    assert.equal(parseSystemoneRequest(choice(512)).questions[0].options.length, 512);
    rejects(choice(513), ["questions", "pick", "criteria"], "at most 512");
    rejects(choice(1), ["questions", "pick", "criteria"], "must hold at least two choices");
    rejects(base({questions: {pick: {type: "choice", criteria: {a: 1, b: null}}}}), ["questions", "pick", "criteria", "a"], "description string or null");
    rejects(base({questions: {pick: {type: "choice"}}}), ["questions", "pick", "criteria"], "is required");
});

test("64 levels pass, 65 are rejected, one level is too few", () => {
    const score = (count: number) => base({questions: {rate: {type: "score", criteria: Array.from({length: count}, (_, index) => `level ${index}`)}}});
    assert.equal(parseSystemoneRequest(score(64)).questions[0].options.length, 64);
    rejects(score(65), ["questions", "rate", "criteria"], "at most 64");
    rejects(score(1), ["questions", "rate", "criteria"], "must hold at least two levels");
    rejects(base({questions: {rate: {type: "score", criteria: ["a", 2]}}}), ["questions", "rate", "criteria", 1], "must be a string");
});

test("8 images pass, 9 are rejected; 25,000,000 pixels pass, 25,000,001 are rejected", () => {
    const url = toDataUrl(pngHeader(10, 10));
    assert.equal(parseSystemoneRequest(base({x_svc: {images: images(new Array(8).fill(url))}})).images.length, 8);
    rejects(base({x_svc: {images: images(new Array(9).fill(url))}}), ["x_svc", "images"], "holds 9 images; at most 8");
    assert.equal(parseSystemoneRequest(base({x_svc: {images: {big: toDataUrl(pngHeader(5000, 5000))}}})).images[0].height, 5000);
    rejects(base({x_svc: {images: {big: toDataUrl(pngHeader(1, 25_000_001))}}}), ["x_svc", "images", "big"], "at most 25,000,000 pixels");
    rejects(base({x_svc: {images: {text: `data:image/png;base64,${btoa("hello, not an image")}`}}}), ["x_svc", "images", "text"], "cannot be read as an image", "request_rejected");
    rejects(base({x_svc: {images: {link: "https://example.com/a.png"}}}), ["x_svc", "images", "link"], "data URL");
});

test("100,000 JSON values pass, 100,001 are rejected", () => {
    // root, model, state array, questions, questions.urgent, its type and instructions: 7 values plus the state's items.
    const body = (total: number) => base({state: new Array(total - 7).fill(0)});
    assert.equal(countJsonValues(body(100_000)), 100_000);
    assert.equal(parseSystemoneRequest(body(100_000)).questions.length, 1);
    rejects(body(100_001), [], "more than 100,000 JSON values");
});

test("the local x_svc.label_mass is a boolean here too, beside images", () => {
    assert.equal(parseSystemoneRequest(base()).labelMass, false);
    assert.equal(parseSystemoneRequest(base({x_svc: {label_mass: true, images: {}}})).labelMass, true);
    rejects(base({x_svc: {label_mass: "true"}}), ["x_svc", "label_mass"], "must be a boolean");
});

test("unknown fields, stream included, a wrong model and malformed questions are rejected", () => {
    rejects(base({stream: true}), ["stream"], "is not a recognised field");
    rejects(base({model: "svc-1"}), ["model"], "must be \"svc-1-decision\"");
    rejects(base({x_svc: {temperature: 1}}), ["x_svc", "temperature"], "is not a recognised field");
    rejects(base({questions: {"": noul}}), ["questions", ""], "must not be empty");
    rejects(base({questions: {q: {type: "predicate"}}}), ["questions", "q", "type"], "must be one of");
    rejects(base({questions: {q: {...noul, name: "x"}}}), ["questions", "q", "name"], "is not a recognised field");
    rejects(base({questions: {q: {...noul, criteria: {yes: "x"}}}}), ["questions", "q", "criteria", "yes"], "is not a recognised field");
    rejects("text", [], "must be an object");
});

test("a model nested 5,000 deep is refused at model, and a state nested as deep is read", () => {
    rejects(base({model: nestedArrays(5_000)}), ["model"], "got a value of type array");
    assert.equal(parseSystemoneRequest(base({state: nestedArrays(5_000, 1)})).text, nestedArraysText(5_000, 1));
});
