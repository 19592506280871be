import {randomUUID} from "node:crypto";

/** OpenAI-style object ids: a prefix and 24 random hex characters. */
export function makeId(prefix: string): string {
    return `${prefix}-${randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

export const unixSeconds = () => Math.floor(Date.now() / 1000);
