import {limits, modelIds} from "../../limits.ts";
import {fail, readObject, rejectUnknownFields, required, type JsonObject} from "../../validation/read.ts";
import {countJsonValues} from "../countJsonValues.ts";

/**
 * The checks both decision endpoints start with, in the order a client would fix them: a JSON object, at
 * most 100,000 JSON values (spec 8), no unknown top-level field (`stream` included), model `svc-1-decision`.
 */
export function readDecisionBody(body: unknown, knownFields: readonly string[]): JsonObject {
    const object = readObject(body, []);
    const count = countJsonValues(object, limits.jsonValuesPerRequest);
    if (count > limits.jsonValuesPerRequest)
        fail([], `holds more than ${limits.jsonValuesPerRequest.toLocaleString("en-US")} JSON values; reduce the data sent`);
    rejectUnknownFields(object, [], knownFields);
    const model = required(object, "model", [], (value) => value);
    if (model !== modelIds.decision) fail(["model"], `must be "${modelIds.decision}", got ${JSON.stringify(model)}`);
    return object;
}
