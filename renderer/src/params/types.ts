/** A parameter value as the panel holds it; `undefined` means "not sent" (the server's default applies). */
export type ParamValue = number | boolean | string | string[] | undefined;

export type ParamValues = Record<string, ParamValue>;

export type ParamSpec = {
    key: string,
    label: string,
    kind: "integer" | "number" | "boolean" | "enum" | "stopList",
    /** Where the value goes in the request body, e.g. `["chat_template_kwargs", "enable_thinking"]`. */
    path: string[],
    min?: number,
    max?: number,
    step?: number,
    options?: readonly string[],
    /** Sent only while this boolean parameter is true (`stream_options` needs `stream`). */
    requires?: string,
    /** Shown as the field's hint: the rule from the spec. */
    help: string,
    group: "Output" | "Sampling" | "Reasoning" | "Streaming"
};
