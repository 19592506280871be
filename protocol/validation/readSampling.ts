import type {SamplingParams} from "../chat/types.ts";
import {fail, optional, readArray, readInteger, readNumber, readString, type JsonObject} from "./read.ts";
import type {FieldPath} from "./ValidationError.ts";

// Sampling fields shared by chat, legacy completions and Responses, validated once for all three.
// Ranges follow the OpenAI format (the spec leaves them "not shown"), so clients written for it keep working.

const maxStopSequences = 4;

export function readStop(value: unknown, path: FieldPath): string[] {
    const stops = typeof value === "string" ? [value] : readArray(value, path).map((item, index) => readString(item, [...path, index]));
    if (stops.length > maxStopSequences) fail(path, `must hold at most ${maxStopSequences} stop sequences, got ${stops.length}`);
    stops.forEach((stop, index) => {
        if (stop.length === 0) fail(typeof value === "string" ? path : [...path, index], "must not be empty");
    });
    return stops;
}

export function readSampling(body: JsonObject, {withStop = true, withPenalties = true} = {}): SamplingParams {
    const sampling: SamplingParams = {
        temperature: optional(body, "temperature", [], (value, path) => readNumber(value, path, {min: 0, max: 2})),
        top_p: optional(body, "top_p", [], (value, path) => readNumber(value, path, {min: 0, max: 1})),
        seed: optional(body, "seed", [], (value, path) => readInteger(value, path, {min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER}))
    };
    if (withStop) sampling.stop = optional(body, "stop", [], readStop);
    if (withPenalties) {
        sampling.presence_penalty = optional(body, "presence_penalty", [], (value, path) => readNumber(value, path, {min: -2, max: 2}));
        sampling.frequency_penalty = optional(body, "frequency_penalty", [], (value, path) => readNumber(value, path, {min: -2, max: 2}));
    }
    return sampling;
}
