// Decision runs kept in History: their answers read back, and a run opened again in the Decision studio.
import type {JsonBody} from "../../../../client/sdk/index.ts";
import type {QuestionSet, StoredResponse} from "../../../../client/scoring/index.ts";
import {useNavStore} from "../../ui/appState.ts";
import type {DecisionRunKind, HistoryEntry} from "../playground/runs.ts";
import {toQuestionSet, type DraftSet} from "../questionSet/draft.ts";
import {draftFromQuestionSet} from "../questionSet/draftFromQuestionSet.ts";
import {answerViews, type AnswerView} from "../questionSet/requests.ts";
import {inputFromRequest} from "./decisionInput.ts";
import {requestReplacement} from "./setReplacement.ts";
import type {DecisionRunResult} from "./studioState.ts";

export const isDecisionRun = (entry: HistoryEntry): entry is HistoryEntry & {kind: DecisionRunKind} => entry.kind === "decisions" || entry.kind === "systemone";

/** The question set a decision request asked, as the builder holds it; null when the request holds none it can read. */
export function draftOfRequest(kind: DecisionRunKind, body: JsonBody): DraftSet | null {
    try {
        return {...draftFromQuestionSet({format: kind, questions: body.questions, ...(body.x_svc === undefined ? {} : {x_svc: body.x_svc})}), name: "From History"};
    } catch {
        return null;
    }
}

/** A decision run's answers as the studio's cards show them (uncalibrated: a request carries no calibration). */
export function answersOfRun(entry: HistoryEntry & {kind: DecisionRunKind}): AnswerView[] | null {
    const draft = draftOfRequest(entry.kind, entry.request);
    const response = entry.reply as StoredResponse | null;
    if (draft === null || entry.status !== "done" || response === null || typeof response !== "object") return null;
    try {
        return answerViews(toQuestionSet(draft) as QuestionSet, response);
    } catch {
        return null;
    }
}

/** A decision run kept in History as the studio shows a run: answers, usage, timings, error. */
export function resultOfRun(entry: HistoryEntry & {kind: DecisionRunKind}): DecisionRunResult {
    const response = entry.reply as {usage?: Record<string, unknown>} | null;
    const usage = response?.usage ? Object.fromEntries(Object.entries(response.usage).filter((item): item is [string, number] => typeof item[1] === "number")) : null;
    return {
        status: entry.status,
        sent: true,
        connectionName: entry.connectionName,
        format: entry.kind,
        body: entry.request,
        response: entry.reply ?? null,
        views: answersOfRun(entry),
        usage,
        serverTimingMs: entry.timing.serverTimingMs ?? null,
        durationMs: entry.timing.totalMs ?? 0,
        attempts: entry.timing.attempts ?? null,
        error: entry.error ?? null
    };
}

/** Puts a decision run back in the Decision studio: its set, input and answers (asking first if the set has unsaved edits). */
export function openDecisionRun(entry: HistoryEntry & {kind: DecisionRunKind}) {
    const draft = draftOfRequest(entry.kind, entry.request);
    if (draft === null) return;
    requestReplacement({what: "the run from History", draft, saved: false, input: inputFromRequest(entry.kind, entry.request), result: resultOfRun(entry),
        done: "Opened a run from History."});
    useNavStore.getState().go("decisions");
}
