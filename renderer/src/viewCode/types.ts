import type {JsonBody} from "../../../client/sdk/index.ts";

export type Endpoint = "chat" | "responses" | "completions";

/** A request to show as code: the endpoint, the API base URL (ending in `/svc-1/v1`) and the body. */
export type CodeRequest = {endpoint: Endpoint, baseUrl: string, body: JsonBody};

export type CodeOptions = {
    /** Shorten long `data:` URLs (images) so the code stays readable; copying uses the full request. */
    elideDataUrls?: boolean
};

/** The environment variable every snippet reads the key from; no snippet ever holds a key. */
export const apiKeyEnvVar = "SVC_API_KEY";
