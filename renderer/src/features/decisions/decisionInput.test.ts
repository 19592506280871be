import assert from "node:assert/strict";
import {test} from "node:test";
import {newQuestion, type DraftQuestion, type DraftSet} from "../questionSet/draft.ts";
import {buildDecisionRequest, type InputValue} from "../questionSet/requests.ts";
import {inputFromRequest} from "./decisionInput.ts";

const png = "data:image/png;base64,iVBORw0KGgo=";

function draftOf(format: DraftSet["format"]): DraftSet {
    const questions: DraftQuestion[] = [newQuestion("predicate", [])];
    return {format, name: "", description: "", explain: false, maxSoftTokens: null, questions, calibration: null};
}

test("a request's input reads back as the studio typed it: text, or a JSON state, with its images in order, on both endpoints", () => {
    const cases: Array<[InputValue, {mode: string, text?: string, jsonText?: string}]> = [
        [{kind: "text", text: "Plain words"}, {mode: "text", text: "Plain words"}],
        [{kind: "json", value: {stars: 4, review: "ok"}}, {mode: "json", jsonText: "{\n  \"review\": \"ok\",\n  \"stars\": 4\n}\n"}]
    ];
    for (const format of ["decisions", "systemone"] as const)
        for (const [value, expected] of cases) {
            const {body} = buildDecisionRequest(draftOf(format), value, [png, png]);
            const input = inputFromRequest(format, body as Record<string, unknown>);
            const {images, ...rest} = input;
            // /v1/decisions sends a state as stable JSON text (keys sorted); /v1/systemone sends it as it is.
            const jsonText = format === "systemone" && expected.jsonText ? "{\n  \"stars\": 4,\n  \"review\": \"ok\"\n}\n" : expected.jsonText;
            assert.deepEqual(rest, {...expected, ...(jsonText === undefined ? {} : {jsonText})}, `${format} ${value.kind}`);
            assert.deepEqual(images?.map((image) => [image.name, image.dataUrl]), [["image_1", png], ["image_2", png]]);
        }
});

test("text that only looks like JSON stays text; a request without input gives empty text", () => {
    assert.deepEqual(inputFromRequest("decisions", {input: "{not json"}), {mode: "text", text: "{not json", images: []});
    assert.deepEqual(inputFromRequest("decisions", {input: "42"}), {mode: "text", text: "42", images: []});
    assert.deepEqual(inputFromRequest("decisions", {}), {mode: "text", text: "", images: []});
});
