import type {NormalizedQuestion} from "../../protocol/decisions/types.ts";
import type {QuestionInfo} from "./types.ts";

/**
 * QuestionInfo for each parsed question. Unnamed /v1/decisions questions get `q<n>`; should that clash with a
 * supplied name, underscores are appended, so every question owns its own column names.
 */
export function questionInfos(normalized: readonly NormalizedQuestion[]): QuestionInfo[] {
    const supplied = new Set(normalized.flatMap((question) => question.name === undefined ? [] : [question.name]));
    return normalized.map((question) => {
        let name = question.name;
        if (name === undefined) {
            name = `q${question.index + 1}`;
            while (supplied.has(name)) name += "_";
            supplied.add(name);
        }
        return {
            index: question.index,
            name,
            kind: question.kind,
            options: question.options.map((option) => ({value: option.value, label: option.text}))
        };
    });
}
