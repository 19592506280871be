import assert from "node:assert/strict";
import {ValidationError, type FieldPath} from "../../protocol/validation.ts";

/** Asserts that `parse(body)` throws a ValidationError at `path` whose message holds `messagePart`, with `code`. */
export function expectRejection(parse: (body: unknown) => unknown, body: unknown, path: FieldPath, messagePart: string, code?: string) {
    assert.throws(() => parse(body), (error: unknown) => {
        assert.ok(error instanceof ValidationError, `expected a ValidationError, got ${String(error)}`);
        assert.deepEqual(error.path, path);
        assert.ok(error.message.includes(messagePart), `"${error.message}" lacks "${messagePart}"`);
        assert.equal(error.code, code);
        return true;
    });
}
