import type {DraftSet} from "./types.ts";

/**
 * What the draft holds that the selected format writes differently or not at all, one line per question
 * concerned, so a format switch never drops something silently (the draft keeps it for a switch back).
 */
export function conversionNotes(draft: DraftSet): string[] {
    const notes: string[] = [];
    draft.questions.forEach((question, index) => {
        const label = question.name === "" ? `question ${index + 1}` : question.name;
        if (draft.format === "decisions") {
            if (question.type === "predicate" && (question.trueDescription !== "" || question.falseDescription !== ""))
                notes.push(`${label}: /v1/decisions has no place for what true and false mean; kept here and sent on /v1/systemone only.`);
            return;
        }
        if (question.type === "choice" && question.choices.some((choice) => typeof choice.value === "boolean"))
            notes.push(`${label}: boolean values are sent as the keys "true" / "false" (their type comes back on /v1/decisions).`);
        if (question.type === "score" && question.levels.some((level) => level.description !== ""))
            notes.push(`${label}: each level is sent as one criteria string, "label: description".`);
    });
    return notes;
}
