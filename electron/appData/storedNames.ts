// The checks every file the app-data store writes goes through: a key or id becomes a file name, and a value a file of
// bounded size. A refusal is a GatewayError, so the route answers it as a 4xx with the gateway's envelope.
import {appDataLimits} from "../../protocol/gateway/contract.ts";
import {GatewayError} from "../api/answers.ts";

const namePattern = new RegExp(appDataLimits.namePattern);
/** Names Windows keeps for devices (`NUL.json` is the device, not a file), whatever follows the first dot. */
const windowsDevice = /^(con|prn|aux|nul|com\d|lpt\d|conin\$|conout\$)(\.|$)/i;

/**
 * `value` when it can name a file or folder inside the data folder: letters, digits, `.`, `_` and `-`, starting with a
 * letter or digit, at most 128 characters, not ending in `.` (Windows drops it) and not a Windows device name. So no
 * `/`, `\`, `..`, drive or absolute path can reach outside the folder. Else a 400 naming `what`.
 */
export function checkName(what: string, value: unknown): string {
    if (!isName(value))
        throw new GatewayError(400, "invalid_name", "invalid_request_error",
            `${what} must be 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit, got ${describe(value)}`);
    return value;
}

/** Whether `value` passes checkName. */
export function isName(value: unknown): value is string {
    return typeof value === "string" && namePattern.test(value) && !value.endsWith(".") && !windowsDevice.test(value);
}

/** A route parameter (still URL-encoded, as the route table gives it) checked as a name. */
export function paramName(what: string, encoded: string | undefined): string {
    let decoded: string;
    try {
        decoded = decodeURIComponent(encoded ?? "");
    } catch {
        decoded = encoded ?? "";
    }
    return checkName(what, decoded);
}

/**
 * `value` as the JSON text to store, refused with a 413 when it is longer than `maxBytes` (UTF-8), a message that names
 * the bound (`limitName`, as `appDataLimits.maxRowResultBytes`) when given.
 */
export function boundedJson(what: string, value: unknown, maxBytes: number, limitName?: string): string {
    const text = JSON.stringify(value);
    if (text === undefined) throw new GatewayError(400, "invalid_request", "invalid_request_error", `${what} must be a JSON value`);
    const bytes = Buffer.byteLength(text);
    if (bytes > maxBytes) throw tooLarge(what, bytes, maxBytes, limitName);
    return text;
}

export function tooLarge(what: string, bytes: number, maxBytes: number, limitName?: string): GatewayError {
    return new GatewayError(413, "payload_too_large", "invalid_request_error",
        `${what} is ${bytes} bytes; the limit${limitName === undefined ? "" : `, ${limitName},`} is ${maxBytes} bytes; nothing was saved`);
}

function describe(value: unknown): string {
    if (typeof value !== "string") return value === null ? "null" : typeof value;
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value);
}

/** Stored JSON text parsed, undefined when it does not parse (what is read back is checked, never trusted). */
export function parsedJson(text: string): unknown {
    try {
        return JSON.parse(text);
    } catch {
        return undefined;
    }
}
