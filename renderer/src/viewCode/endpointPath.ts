import type {Endpoint} from "./types.ts";

/** Path of each endpoint under the `/svc-1/v1` base URL (spec §4). */
export const endpointPath: Record<Endpoint, string> = {
    chat: "/chat/completions",
    responses: "/responses",
    completions: "/completions"
};
