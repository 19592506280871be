import type {ScoringRequest, QuestionSet} from "../../../../client/scoring/index.ts";
import type {Connection} from "../../gateway/types.ts";
import {svcClientFor} from "../../gateway/svcClientFor.ts";
import {toErrorInfo} from "../../runs/toErrorInfo.ts";
import type {ErrorInfo} from "../../runs/types.ts";
import {answerViews, type AnswerView} from "../model/answerViews.ts";

export type DecisionRunResult = {
    status: "done" | "error" | "stopped",
    connectionName: string,
    format: QuestionSet["format"],
    /** The body sent. */
    body: unknown,
    views: AnswerView[] | null,
    /** `usage` of the response (spec 2.3), numbers only. */
    usage: Record<string, number> | null,
    /** From the response's Server-Timing header; null when absent. */
    serverTimingMs: number | null,
    /** Measured here, from the call to the whole body, retries included. */
    durationMs: number,
    attempts: number | null,
    error: ErrorInfo | null
};

/**
 * Sends one decision request through the gateway to `connection` and reads the answers into cards (calibrated
 * where `set` carries a calibration). Never throws: a failure is a result with the error as the server sent it.
 */
export async function executeDecision(set: QuestionSet, request: ScoringRequest, connection: Connection, signal: AbortSignal): Promise<DecisionRunResult> {
    const started = performance.now();
    const base = {connectionName: connection.name, format: request.format, body: request.body, views: null, usage: null, serverTimingMs: null, attempts: null, error: null};
    try {
        const client = svcClientFor(connection);
        const {data, meta} = request.format === "decisions"
            ? await client.decisions(request.body, {signal})
            : await client.systemone(request.body, {signal});
        const usage = Object.fromEntries(Object.entries(data.usage ?? {}).filter((entry): entry is [string, number] => typeof entry[1] === "number"));
        return {
            ...base,
            status: "done",
            views: answerViews(set, {answers: data.answers, ...(data.x_svc === undefined ? {} : {x_svc: data.x_svc})}),
            usage,
            serverTimingMs: meta.serverTimingMs,
            durationMs: meta.durationMs,
            attempts: meta.attempts
        };
    } catch (error) {
        const durationMs = performance.now() - started;
        if (signal.aborted) return {...base, status: "stopped", durationMs};
        return {...base, status: "error", durationMs, error: toErrorInfo(error)};
    }
}
