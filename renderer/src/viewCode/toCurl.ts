import {elideDataUrls} from "./elideDataUrls.ts";
import {endpointPath} from "./endpointPath.ts";
import {apiKeyEnvVar, type CodeOptions, type CodeRequest} from "./types.ts";

/** The request as a curl command; the key is read from `$SVC_API_KEY` by the shell. */
export function toCurl(request: CodeRequest, options: CodeOptions = {}): string {
    const body = options.elideDataUrls ? elideDataUrls(request.body) : request.body;
    const streaming = body.stream === true;
    return [
        `curl ${streaming ? "-N " : ""}${request.baseUrl}${endpointPath[request.endpoint]} \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -H "Authorization: Bearer $${apiKeyEnvVar}" \\`,
        `  -d ${shellQuote(JSON.stringify(body, null, 2))}`
    ].join("\n") + "\n";
}

/** Single-quotes a string for POSIX shells; an embedded `'` becomes `'\''`. */
export function shellQuote(text: string): string {
    return `'${text.replaceAll("'", "'\\''")}'`;
}
