import {test} from "node:test";
import assert from "node:assert/strict";
import type {FieldPath} from "../validation.ts";
import {countJsonValues, parseDecisionsRequest} from "./parseDecisionsRequest.ts";
import {gifHeader, jpegHeader, pngHeader, toDataUrl} from "../../test/fixtures/imageFixtures.ts";
import {expectRejection} from "../../test/support/expectRejection.ts";
import {nestedArrays} from "../../test/support/hostileJson.ts";

type Body = Record<string, unknown>;

const predicate = (index = 0) => ({type: "predicate", instructions: `statement ${index}`});
const base = (extra: Body = {}): Body => ({model: "svc-1-decision", input: "some text", questions: [predicate()], ...extra});
const choices = (count: number) => Array.from({length: count}, (_, index) => ({value: `option ${index}`}));
const levels = (count: number) => Array.from({length: count}, (_, index) => ({label: `level ${index}`}));
const imagePart = (url: string) => ({type: "input_image", image_url: url});
const withImages = (urls: string[]): Body => base({input: [{role: "user", content: urls.map(imagePart)}]});

const rejects = (body: unknown, path: FieldPath, messagePart: string, code?: string) =>
    expectRejection(parseDecisionsRequest, body, path, messagePart, code);

test("a full request normalises to text, named images and typed questions", () => {
    const png = toDataUrl(pngHeader(64, 48));
    const jpeg = toDataUrl(jpegHeader(32, 16), "image/jpeg");
    const request = parseDecisionsRequest({
        model: "svc-1-decision",
        input: [
            {role: "user", content: "first"},
            {type: "message", role: "user", content: [{type: "input_text", text: "second"}, {type: "input_image", image_url: png, detail: "low"}]},
            {role: "user", content: [{type: "input_image", image_url: jpeg}, {type: "input_text", text: "third"}]}
        ],
        questions: [
            {type: "predicate", name: "is_cat", instructions: "The image shows a cat."},
            {type: "choice", instructions: "Which?", choices: [{value: true, description: "yes it is"}, {value: "maybe"}, {value: false}]},
            {type: "score", name: "quality", instructions: "Rate it.", levels: [{label: "bad"}, {label: "good", description: "fine"}]}
        ],
        x_svc: {explain: true, max_soft_tokens: 280},
        safety_identifier: "user-1"
    });
    assert.equal(request.endpoint, "decisions");
    assert.equal(request.text, "first\n\nsecond\n\nthird");
    assert.deepEqual(request.images.map(({name, mediaType, format, width, height}) => ({name, mediaType, format, width, height})), [
        {name: "image_1", mediaType: "image/png", format: "png", width: 64, height: 48},
        {name: "image_2", mediaType: "image/jpeg", format: "jpeg", width: 32, height: 16}
    ]);
    assert.deepEqual(request.images[0].bytes, pngHeader(64, 48));
    assert.equal(request.explain, true);
    assert.equal(request.maxSoftTokens, 280);
    assert.deepEqual(request.questions, [
        {index: 0, name: "is_cat", instructions: "The image shows a cat.", kind: "yesno", options: [{value: true, text: "yes"}, {value: false, text: "no"}]},
        {index: 1, instructions: "Which?", kind: "choice", options: [{value: true, text: "true", description: "yes it is"}, {value: "maybe", text: "maybe"}, {value: false, text: "false"}]},
        {index: 2, name: "quality", instructions: "Rate it.", kind: "score", options: [{value: 0, text: "bad"}, {value: 1, text: "good", description: "fine"}]}
    ]);
});

test("a string input is the text; no x_svc means no explanations; null safety_identifier is accepted", () => {
    const request = parseDecisionsRequest(base({safety_identifier: null}));
    assert.equal(request.text, "some text");
    assert.deepEqual(request.images, []);
    assert.equal(request.explain, false);
    assert.equal(request.maxSoftTokens, undefined);
    rejects(base({safety_identifier: 5}), ["safety_identifier"], "must be a string");
});

test("512 questions pass, 513 are rejected", () => {
    assert.equal(parseDecisionsRequest(base({questions: Array.from({length: 512}, (_, index) => predicate(index))})).questions.length, 512);
    rejects(base({questions: Array.from({length: 513}, (_, index) => predicate(index))}), ["questions"], "at most 512");
    rejects(base({questions: []}), ["questions"], "must hold at least one question");
});

test("with x_svc.explain, 64 questions pass and 65 are rejected", () => {
    const explain = {explain: true};
    assert.equal(parseDecisionsRequest(base({x_svc: explain, questions: Array.from({length: 64}, (_, index) => predicate(index))})).questions.length, 64);
    rejects(base({x_svc: explain, questions: Array.from({length: 65}, (_, index) => predicate(index))}), ["questions"], "at most 64");
    // explain false keeps the 512 limit.
    assert.equal(parseDecisionsRequest(base({x_svc: {explain: false}, questions: Array.from({length: 65}, (_, index) => predicate(index))})).questions.length, 65);
});

test("512 choices pass, 513 are rejected, one choice must hold at least two", () => {
    const choice = (count: number) => base({questions: [{type: "choice", instructions: "Pick", choices: choices(count)}]});
    assert.equal(parseDecisionsRequest(choice(512)).questions[0].options.length, 512);
    rejects(choice(513), ["questions", 0, "choices"], "at most 512");
    rejects(choice(1), ["questions", 0, "choices"], "must hold at least two choices");
    rejects(base({questions: [{type: "choice", instructions: "Pick"}]}), ["questions", 0, "choices"], "is required");
});

test("64 levels pass, 65 are rejected, one level is too few", () => {
    const score = (count: number) => base({questions: [{type: "score", instructions: "Rate", levels: levels(count)}]});
    assert.deepEqual(parseDecisionsRequest(score(64)).questions[0].options.map((option) => option.value), Array.from({length: 64}, (_, index) => index));
    rejects(score(65), ["questions", 0, "levels"], "at most 64");
    rejects(score(1), ["questions", 0, "levels"], "must hold at least two levels");
    rejects(base({questions: [{type: "score", instructions: "Rate", levels: [{label: "a"}, {description: "no label"}]}]}), ["questions", 0, "levels", 1, "label"], "is required");
});

test("8 images pass, 9 are rejected", () => {
    const url = toDataUrl(gifHeader(10, 10), "image/gif");
    assert.deepEqual(parseDecisionsRequest(withImages(new Array(8).fill(url))).images.map((image) => image.name),
        ["image_1", "image_2", "image_3", "image_4", "image_5", "image_6", "image_7", "image_8"]);
    rejects(withImages(new Array(9).fill(url)), ["input"], "holds 9 images; at most 8");
});

test("25,000,000 pixels pass, 25,000,001 are rejected", () => {
    assert.equal(parseDecisionsRequest(withImages([toDataUrl(pngHeader(5000, 5000))])).images[0].width, 5000);
    assert.equal(parseDecisionsRequest(withImages([toDataUrl(pngHeader(25_000_000, 1))])).images[0].width, 25_000_000);
    rejects(withImages([toDataUrl(pngHeader(25_000_001, 1))]), ["input", 0, "content", 0, "image_url"], "at most 25,000,000 pixels");
    rejects(withImages([toDataUrl(pngHeader(5001, 5000))]), ["input", 0, "content", 0, "image_url"], "25,005,000 pixels");
});

test("images must be base64 data URLs of real images", () => {
    const at: FieldPath = ["input", 0, "content", 0, "image_url"];
    rejects(withImages(["https://example.com/cat.png"]), at, "external URLs are not supported");
    rejects(withImages(["data:image/png;base64,@@@@"]), at, "invalid base64");
    rejects(withImages([`data:image/png;base64,${btoa("just some text, not a picture")}`]), at, "cannot be read as an image", "request_rejected");
    rejects(base({input: [{role: "user", content: [{type: "input_image", file_id: "file-1"}]}]}), ["input", 0, "content", 0, "file_id"], "is not a recognised field");
    rejects(base({input: [{role: "user", content: [{type: "input_image"}]}]}), at, "is required");
    rejects(base({input: [{role: "user", content: [{type: "input_image", image_url: toDataUrl(pngHeader(1, 1)), detail: "huge"}]}]}), ["input", 0, "content", 0, "detail"], "must be one of");
    // The declared type may be wrong; the bytes decide.
    assert.equal(parseDecisionsRequest(withImages([toDataUrl(pngHeader(2, 2), "image/jpeg")])).images[0].mediaType, "image/png");
});

test("100,000 JSON values pass, 100,001 are rejected as a whole-body problem", () => {
    // 17 values in the skeleton below without parts or descriptions; each text part adds 3, each description 1.
    const body = (total: number): Body => {
        const parts = Math.floor((total - 17) / 3);
        const descriptions = (total - 17) % 3;
        return {
            model: "svc-1-decision",
            input: [{role: "user", content: Array.from({length: parts}, () => ({type: "input_text", text: "x"}))}],
            questions: [{type: "choice", instructions: "Pick", choices: ["a", "b", "c"].map((value, index) => index < descriptions ? {value, description: "d"} : {value})}]
        };
    };
    assert.equal(countJsonValues(body(100_000)), 100_000);
    assert.equal(countJsonValues(body(100_001)), 100_001);
    assert.equal(parseDecisionsRequest(body(100_000)).questions.length, 1);
    rejects(body(100_001), [], "more than 100,000 JSON values");
});

test("names are optional but non-empty and unique when given", () => {
    rejects(base({questions: [{...predicate(), name: "a"}, {...predicate(1), name: "a"}]}), ["questions", 1, "name"], "duplicates the name of questions[0]");
    rejects(base({questions: [{...predicate(), name: ""}]}), ["questions", 0, "name"], "must not be empty");
    rejects(base({questions: [{...predicate(), name: 3}]}), ["questions", 0, "name"], "must be a string");
    assert.deepEqual(parseDecisionsRequest(base({questions: [predicate(), predicate(1), {...predicate(2), name: "x"}]})).questions.map((question) => question.name), [undefined, undefined, "x"]);
});

test("choice values are strings or booleans, unique, and never both true and \"true\"", () => {
    const choice = (values: unknown[]) => base({questions: [{type: "choice", instructions: "Pick", choices: values.map((value) => ({value}))}]});
    rejects(choice([true, "true"]), ["questions", 0, "choices", 1, "value"], "cannot hold both true and the string \"true\"");
    rejects(choice(["false", "x", false]), ["questions", 0, "choices", 2, "value"], "cannot hold both false and the string \"false\"");
    rejects(choice(["a", "b", "a"]), ["questions", 0, "choices", 2, "value"], "duplicates the value of choices[0]");
    rejects(choice([true, false, true]), ["questions", 0, "choices", 2, "value"], "duplicates the value of choices[0]");
    rejects(choice(["a", 1]), ["questions", 0, "choices", 1, "value"], "must be a string or a boolean");
    // "True" is not "true", and true with "false" is fine.
    assert.deepEqual(parseDecisionsRequest(choice([true, "True", "false"])).questions[0].options.map((option) => option.value), [true, "True", "false"]);
});

test("the local x_svc.label_mass is a boolean, off unless sent; a wrong type or a misspelling is refused", () => {
    assert.equal(parseDecisionsRequest(base()).labelMass, false);
    assert.equal(parseDecisionsRequest(base({x_svc: {explain: true}})).labelMass, false);
    assert.equal(parseDecisionsRequest(base({x_svc: {label_mass: true}})).labelMass, true);
    assert.equal(parseDecisionsRequest(base({x_svc: {label_mass: false}})).labelMass, false);
    // It does not count as an explanation: the 512-question limit stays.
    assert.equal(parseDecisionsRequest(base({x_svc: {label_mass: true}, questions: Array.from({length: 65}, (_, index) => predicate(index))})).questions.length, 65);
    rejects(base({x_svc: {label_mass: "yes"}}), ["x_svc", "label_mass"], "must be a boolean");
    rejects(base({x_svc: {label_mass: 1}}), ["x_svc", "label_mass"], "must be a boolean");
    rejects(base({x_svc: {labelMass: true}}), ["x_svc", "labelMass"], "is not a recognised field");
});

test("unknown fields, stream included, and a wrong model are rejected", () => {
    rejects(base({stream: false}), ["stream"], "is not a recognised field");
    rejects(base({tools: []}), ["tools"], "is not a recognised field");
    rejects(base({model: "svc-1"}), ["model"], "must be \"svc-1-decision\"");
    const {model: _model, ...noModel} = base();
    rejects(noModel, ["model"], "is required");
    rejects(base({x_svc: {images: {}}}), ["x_svc", "images"], "is not a recognised field");
    rejects(base({x_svc: {explain: "yes"}}), ["x_svc", "explain"], "must be a boolean");
    rejects(base({questions: [{...predicate(), choices: choices(2)}]}), ["questions", 0, "choices"], "is not a recognised field");
    rejects(base({questions: [{...predicate(), weight: 2}]}), ["questions", 0, "weight"], "is not a recognised field");
    rejects(base({questions: [{type: "ranking", instructions: "x"}]}), ["questions", 0, "type"], "must be one of");
    rejects(base({questions: [{type: "predicate"}]}), ["questions", 0, "instructions"], "is required");
    rejects([base()], [], "must be an object");
});

test("only user messages with text and image parts are read", () => {
    rejects(base({input: []}), ["input"], "at least one message");
    rejects(base({input: 5}), ["input"], "must be a string or an array");
    rejects(base({input: [{role: "assistant", content: "hi"}]}), ["input", 0, "role"], "must be one of \"user\"");
    rejects(base({input: [{role: "user", content: [{type: "input_audio", data: "x"}]}]}), ["input", 0, "content", 0, "type"], "must be one of");
    rejects(base({input: [{role: "user", content: null}]}), ["input", 0, "content"], "must be a string or an array");
    rejects(base({input: [{role: "user", content: [{type: "input_text", text: 1}]}]}), ["input", 0, "content", 0, "text"], "must be a string");
});

test("a model nested 5,000 deep is refused at model, named by its type", () => {
    rejects(base({model: nestedArrays(5_000)}), ["model"], "got a value of type array");
    rejects(base({model: {}}), ["model"], "got a value of type object");
});
