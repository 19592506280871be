export type FieldPath = Array<string | number>;

/** A request that does not match its schema; `path` locates the fault for 400 and 422 bodies alike. */
export class ValidationError extends Error {
    public readonly path: FieldPath;
    /** Extra problems found in the same pass (spec 2.4 wants one entry per input shape checked). */
    public readonly problems: Array<{path: FieldPath, message: string}>;
    /** The spec's 400 code when it is not plain `invalid_request`. */
    public readonly code?: string;

    public constructor(path: FieldPath, message: string, options: {problems?: Array<{path: FieldPath, message: string}>, code?: string} = {}) {
        super(`${formatPath(path)}: ${message}`);
        this.name = "ValidationError";
        this.path = path;
        this.problems = options.problems ?? [{path, message}];
        this.code = options.code;
    }
}

/** `["messages", 0, "content"]` -> `messages[0].content` */
export function formatPath(path: FieldPath): string {
    if (path.length === 0) return "body";
    return path.map((part, index) => typeof part === "number" ? `[${part}]` : (index === 0 ? part : `.${part}`)).join("");
}
