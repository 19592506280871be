import type {ScoringRequest} from "../../../../client/scoring/index.ts";
import {stableStringify} from "../../../../protocol/decisions/stableStringify.ts";
import type {DecisionsInputPart} from "../../../../protocol/decisions/types.ts";
import {modelIds} from "../../../../protocol/limits.ts";
import {toQuestionSet} from "./toQuestionSet.ts";
import type {DraftSet} from "./types.ts";

/** What the questions are asked about: text, or a JSON state (any JSON value). */
export type InputValue = {kind: "text", text: string} | {kind: "json", value: unknown};

/**
 * The request body of the draft's endpoint for one input and up to 8 image data URLs, named image_1, image_2...
 * in order. /v1/decisions: a JSON state is sent as stable JSON text (spec 2.9: the client serialises structured
 * data), images as input_image parts after the text in one user message. /v1/systemone: the state as is,
 * images in `x_svc.images` under their names.
 */
export function buildDecisionRequest(draft: DraftSet, input: InputValue, images: readonly string[] = []): ScoringRequest {
    const set = toQuestionSet(draft);
    if (set.format === "decisions") {
        const text = input.kind === "text" ? input.text : stableStringify(input.value);
        const parts: DecisionsInputPart[] = [
            ...(text === "" ? [] : [{type: "input_text" as const, text}]),
            ...images.map((url) => ({type: "input_image" as const, image_url: url}))
        ];
        return {format: "decisions", body: {
            model: modelIds.decision,
            input: images.length === 0 ? text : [{role: "user", content: parts}],
            questions: set.questions,
            ...(set.x_svc === undefined ? {} : {x_svc: set.x_svc})
        }};
    }
    const namedImages = Object.fromEntries(images.map((url, index) => [imageName(index), url]));
    const xSvc = {...set.x_svc, ...(images.length === 0 ? {} : {images: namedImages})};
    return {format: "systemone", body: {
        model: modelIds.decision,
        state: input.kind === "text" ? input.text : input.value,
        questions: set.questions,
        ...(Object.keys(xSvc).length === 0 ? {} : {x_svc: xSvc})
    }};
}

/** The name the model knows an image by: its position from 1 (spec 2.9), the same key on /v1/systemone. */
export function imageName(index: number): string {
    return `image_${index + 1}`;
}
