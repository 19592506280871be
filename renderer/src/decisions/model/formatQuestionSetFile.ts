import {toQuestionSet} from "./toQuestionSet.ts";
import type {DraftSet} from "./types.ts";

/** The file a question set is saved as: toQuestionSet's fixed key order, 2-space indent, a final newline. */
export function formatQuestionSetFile(draft: DraftSet): string {
    return `${JSON.stringify(toQuestionSet(draft), null, 2)}\n`;
}
