import {ValidationError, type FieldPath} from "./ValidationError.ts";
import {describeType, type JsonObject} from "./read.ts";

/**
 * Reads the output budget fields of spec 2.1/2.4 (`max_tokens`, `max_completion_tokens`, `max_output_tokens`):
 * positive integers; when several are sent the first of `fields` wins (`max_completion_tokens` over `max_tokens`).
 * Whether the budget fits the window is checked later, once the prompt is tokenised.
 */
export function readOutputBudget(body: JsonObject, fields: readonly string[]): {value: number, field: string} | undefined {
    let chosen: {value: number, field: string} | undefined;
    for (const field of fields) {
        const value = body[field];
        if (value === undefined || value === null) continue;
        const path: FieldPath = [field];
        if (typeof value !== "number" || !Number.isInteger(value))
            throw new ValidationError(path, `must be an integer, got ${describeType(value)}`);
        if (value <= 0)
            throw new ValidationError(path, `must be a positive integer, got ${value}`);
        chosen ??= {value, field};
    }
    return chosen;
}
