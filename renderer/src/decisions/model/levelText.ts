import type {DraftLevel} from "./types.ts";

/**
 * A level as one /v1/systemone criteria string. The model reads a level's label and description together on
 * both endpoints, so `label: description` keeps what it reads; splitLevelText reads it back.
 */
export function levelText(level: Pick<DraftLevel, "label" | "description">): string {
    if (level.description === "") return level.label;
    return level.label === "" ? level.description : `${level.label}: ${level.description}`;
}

/** The inverse of levelText: `label: description` at the first ": " (not at the start), else all label. */
export function splitLevelText(text: string): {label: string, description: string} {
    const at = text.indexOf(": ");
    return at > 0 ? {label: text.slice(0, at), description: text.slice(at + 2)} : {label: text, description: ""};
}
