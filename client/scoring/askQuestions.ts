import type {SvcClient} from "../sdk/SvcClient.ts";
import type {CallContext} from "./TaskRunner.ts";
import {parseQuestionSet, questionInfos, readAnswers, type QuestionSet, type StoredResponse} from "./questions.ts";
import {requestBuilder, type ScoringRequest} from "./requests.ts";
import type {InputMapping, RowError, SheetRow} from "./types.ts";
import type {ColumnRoles} from "./modelColumns.ts";

/** The two calls a question set makes; an SvcClient, or anything with the same shape. */
export type DecisionCaller = Pick<SvcClient, "decisions" | "systemone">;

/** Token counts a decision endpoint reports (both name them so). */
export type DecisionUsage = {input_tokens: number, output_tokens: number};

/**
 * One row asked: the request body as sent, and the answers as the server sent them, or why they cannot be used
 * (an answer that does not fit the questions would write wrong numbers, so it is the row's error). `durationMs`
 * is the call's (the client's meta: for an answer from the response cache, the time it first took).
 */
export type AskedRow =
    | {ok: true, request: ScoringRequest, response: StoredResponse, usage: DecisionUsage | null, attempts: number, durationMs: number}
    | {ok: false, request: ScoringRequest, error: RowError, attempts: number, durationMs: number};

/** How rows are asked a question set: `build` the body a row sends, `send` it and read the answers. */
export type QuestionAsker = {
    format: "decisions" | "systemone",
    build(row: SheetRow): ScoringRequest,
    /** A failed request throws (the runner classifies it); answers that do not fit the questions are an error. */
    send(client: DecisionCaller, request: ScoringRequest, context: CallContext): Promise<AskedRow>
};

/**
 * Compiles a question set and input mapping against a table's columns and their roles: what spreadsheet scoring and
 * an experiment's decision variants both send. The set is checked as the server checks it and the mapping against
 * the columns now (a label column the model may not see included), so a broken set or template fails once, before
 * any row is sent.
 */
export function askQuestions(questionSet: QuestionSet, input: InputMapping, roles: ColumnRoles): QuestionAsker {
    const infos = questionInfos(parseQuestionSet(questionSet).normalized);
    return {
        format: questionSet.format,
        build: requestBuilder(questionSet, input, roles),
        async send(client, request, context) {
            const {data, meta} = request.format === "decisions"
                ? await client.decisions(request.body, context)
                : await client.systemone(request.body, context);
            const response: StoredResponse = {answers: data.answers, ...(data.x_svc === undefined ? {} : {x_svc: data.x_svc})} as StoredResponse;
            const usage = (data as {usage?: DecisionUsage}).usage ?? null;
            try {
                readAnswers(request.format, infos, response);
                return {ok: true, request, response, usage, attempts: meta.attempts, durationMs: meta.durationMs};
            } catch (error) {
                const message = `the response does not fit the question set: ${error instanceof Error ? error.message : String(error)}`;
                return {ok: false, request, error: {status: meta.status, code: "invalid_response", message}, attempts: meta.attempts, durationMs: meta.durationMs};
            }
        }
    };
}
