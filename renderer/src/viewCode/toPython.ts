import {elideDataUrls} from "./elideDataUrls.ts";
import {formatLiteral} from "./formatLiteral.ts";
import {splitOpenAiFields} from "./splitOpenAiFields.ts";
import {apiKeyEnvVar, type CodeOptions, type CodeRequest, type Endpoint} from "./types.ts";

const createCall: Record<Endpoint, string> = {
    chat: "client.chat.completions.create",
    responses: "client.responses.create",
    completions: "client.completions.create"
};

/** The request as a Python script using the official `openai` client; svc extras go in `extra_body`. */
export function toPython(request: CodeRequest, options: CodeOptions = {}): string {
    const body = options.elideDataUrls ? elideDataUrls(request.body) : request.body;
    const {standard, extra} = splitOpenAiFields(request.endpoint, body);
    const args = Object.entries(standard).map(([key, value]) => `    ${key}=${formatLiteral(value, "python", 4, 1)},`);
    if (Object.keys(extra).length > 0) args.push(`    extra_body=${formatLiteral(extra, "python", 4, 1)},`);
    const streaming = body.stream === true;
    const result = streaming ? "stream" : request.endpoint === "responses" ? "response" : "completion";
    return [
        `import os`,
        ``,
        `from openai import OpenAI`,
        ``,
        `client = OpenAI(`,
        `    base_url=${JSON.stringify(request.baseUrl)},`,
        `    api_key=os.environ[${JSON.stringify(apiKeyEnvVar)}],`,
        `)`,
        ``,
        `${result} = ${createCall[request.endpoint]}(`,
        ...args,
        `)`,
        ...printResult(request.endpoint, streaming),
        ``
    ].join("\n");
}

function printResult(endpoint: Endpoint, streaming: boolean): string[] {
    if (endpoint === "responses") return streaming
        ? [`for event in stream:`, `    if event.type == "response.output_text.delta":`, `        print(event.delta, end="", flush=True)`, `print()`]
        : [`print(response.output_text)`];
    const field = endpoint === "chat" ? "delta.content" : "text";
    if (streaming) return [
        `for chunk in stream:`,
        `    # With include_usage the last chunk has no choices, only usage.`,
        `    if chunk.choices:`,
        `        print(chunk.choices[0].${field} or "", end="", flush=True)`,
        `print()`
    ];
    return [endpoint === "chat" ? `print(completion.choices[0].message.content)` : `print(completion.choices[0].text)`];
}
