import {ValidationError} from "../../protocol/validation/ValidationError.ts";
import type {RequestContext} from "./RequestContext.ts";

/** Spec 2.1/9.2: the body's `model` must equal the `<model>` path segment. */
export function checkModelMatchesPath(model: string, context: RequestContext) {
    if (model !== context.modelSegment)
        throw new ValidationError(["model"], `must equal the model in the URL path (${JSON.stringify(context.modelSegment)}), got ${JSON.stringify(model)}`);
}
