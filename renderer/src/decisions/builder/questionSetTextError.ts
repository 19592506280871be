import {parseQuestionSet} from "../../../../client/scoring/index.ts";

/** What is wrong with question set JSON text as the server (and a scoring job) would see it; null when nothing. */
export function questionSetTextError(text: string, readError: string | null): string | null {
    if (readError !== null) return readError;
    try {
        parseQuestionSet(JSON.parse(text));
        return null;
    } catch (error) {
        return (error as Error).message;
    }
}
