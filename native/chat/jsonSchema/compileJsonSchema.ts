import {Ajv, type ValidateFunction} from "ajv";
import {Ajv2019} from "ajv/dist/2019.js";
import {Ajv2020} from "ajv/dist/2020.js";
import {ValidationError, type FieldPath} from "../../../protocol/validation/ValidationError.ts";

export type JsonValidator = (value: unknown) => string | undefined;

// `format` is not checked (no format vocabulary is installed; the grammar shapes formatted strings instead) and
// unknown keywords are allowed, as in any JSON Schema consumer that is not in strict mode.
// A new Ajv per schema: a shared one would keep every request's schema forever and refuse a second schema
// that reuses an `$id`.
const options = {strict: false, validateFormats: false, allErrors: true} as const;
const dialects = {
    "2020-12": () => new Ajv2020(options),
    "2019-09": () => new Ajv2019(options),
    "draft-07": () => new Ajv(options)
};

/**
 * Checks that `schema` (at `path` in the request) is a valid JSON Schema, before anything is generated
 * (spec 2.7.4: 400 with `is not a valid JSON Schema`), and returns a validator that describes why a value
 * does not conform, or undefined when it does.
 */
export function compileJsonSchema(schema: Record<string, unknown>, path: FieldPath): JsonValidator {
    const dialect = typeof schema.$schema === "string" ? schema.$schema : "2020-12";
    const version = (Object.keys(dialects) as Array<keyof typeof dialects>).find((name) => dialect.includes(name));
    if (version == null) throw invalid(path, `its $schema ${JSON.stringify(dialect)} is not a supported dialect (2020-12, 2019-09, draft-07)`);
    const ajv = dialects[version]();
    if (!ajv.validateSchema(schema)) throw invalid(path, ajv.errorsText(ajv.errors, {dataVar: "schema"}));
    let validate: ValidateFunction;
    try {
        validate = ajv.compile(schema);
    } catch (error) {
        throw invalid(path, (error as Error).message);
    }
    return (value) => validate(value) ? undefined : ajv.errorsText(validate.errors, {dataVar: "value"});
}

function invalid(path: FieldPath, reason: string) {
    return new ValidationError(path, `is not a valid JSON Schema: ${reason}`);
}
