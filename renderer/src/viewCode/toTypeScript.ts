import {elideDataUrls} from "./elideDataUrls.ts";
import {formatLiteral} from "./formatLiteral.ts";
import {splitOpenAiFields} from "./splitOpenAiFields.ts";
import {apiKeyEnvVar, type CodeOptions, type CodeRequest, type Endpoint} from "./types.ts";

const createCall: Record<Endpoint, string> = {
    chat: "client.chat.completions.create",
    responses: "client.responses.create",
    completions: "client.completions.create"
};

/** The request as a TypeScript program using the official `openai` client (ESM, top-level await). */
export function toTypeScript(request: CodeRequest, options: CodeOptions = {}): string {
    const body = options.elideDataUrls ? elideDataUrls(request.body) : request.body;
    const {standard, extra} = splitOpenAiFields(request.endpoint, body);
    const fields = Object.entries(standard).map(([key, value]) => `    ${key}: ${formatLiteral(value, "js", 4, 1)}`);
    if (Object.keys(extra).length > 0) {
        // Spread in, so the typed fields keep their checks while the svc extras pass through as sent.
        fields.push(`    // svc fields outside the openai types, sent as they are\n    ...${formatLiteral(extra, "js", 4, 1)}`);
    }
    const streaming = body.stream === true;
    const result = streaming ? "stream" : request.endpoint === "responses" ? "response" : "completion";
    return [
        `import OpenAI from "openai";`,
        ``,
        `const client = new OpenAI({`,
        `    baseURL: ${JSON.stringify(request.baseUrl)},`,
        `    apiKey: process.env.${apiKeyEnvVar}`,
        `});`,
        ``,
        `const ${result} = await ${createCall[request.endpoint]}({`,
        fields.join(",\n"),
        `});`,
        ...printResult(request.endpoint, streaming),
        ``
    ].join("\n");
}

function printResult(endpoint: Endpoint, streaming: boolean): string[] {
    if (endpoint === "responses") return streaming
        ? [`for await (const event of stream) {`, `    if (event.type === "response.output_text.delta") process.stdout.write(event.delta);`, `}`]
        : [`console.log(response.output_text);`];
    const field = endpoint === "chat" ? "delta?.content" : "text";
    if (streaming) return [
        `for await (const chunk of stream) {`,
        `    // With include_usage the last chunk has no choices, only usage.`,
        `    process.stdout.write(chunk.choices[0]?.${field} ?? "");`,
        `}`
    ];
    return [endpoint === "chat" ? `console.log(completion.choices[0].message.content);` : `console.log(completion.choices[0].text);`];
}
