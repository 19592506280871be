// JSON Schemas for the JSON editors (matched by model path), so Monaco underlines shape mistakes while typing.
const functionName = {type: "string", pattern: "^[a-zA-Z0-9_-]{1,64}$"};

export const editorPaths = {
    tools: "inmemory://svc/tools.json",
    jsonSchema: "inmemory://svc/response_format.json_schema.json"
} as const;

export const editorSchemas = [
    {
        uri: "inmemory://svc/schemas/tools.json",
        fileMatch: [editorPaths.tools],
        schema: {
            type: "array",
            items: {
                type: "object",
                required: ["type", "function"],
                properties: {
                    type: {enum: ["function"]},
                    function: {
                        type: "object",
                        required: ["name"],
                        properties: {name: functionName, description: {type: "string"}, parameters: {type: "object"}, strict: {type: "boolean"}}
                    }
                }
            }
        }
    },
    {
        uri: "inmemory://svc/schemas/json_schema.json",
        fileMatch: [editorPaths.jsonSchema],
        schema: {
            type: "object",
            required: ["name"],
            properties: {name: functionName, description: {type: "string"}, schema: {type: "object"}, strict: {type: "boolean"}}
        }
    }
];
