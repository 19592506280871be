// The local engine's port as the Engine screen reads and writes it (the gateway keeps it: POST /gateway/api/engine/port).
import {lowestEnginePort} from "../../../../protocol/gateway/contract.ts";

/** What the port box holds: nothing typed, a port the gateway takes, or a refusal in words. */
export type PortInput = {kind: "empty"} | {kind: "port", port: number} | {kind: "invalid", message: string};

export const portRule = `0 (a free port at every start) or a whole number from ${lowestEnginePort} to 65535`;

export function readPortInput(text: string): PortInput {
    const trimmed = text.trim();
    if (trimmed === "") return {kind: "empty"};
    const port = /^\d{1,5}$/.test(trimmed) ? Number(trimmed) : NaN;
    if (port === 0 || (port >= lowestEnginePort && port <= 65535)) return {kind: "port", port};
    return {kind: "invalid", message: `The port must be ${portRule}.`};
}
