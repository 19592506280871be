import {modelIds} from "../../protocol/limits.ts";
import type {SvcClient} from "../sdk/SvcClient.ts";
import {askQuestions} from "../scoring/askQuestions.ts";
import {classifyFailure, type CallContext} from "../scoring/TaskRunner.ts";
import {connectionCacheId, type CachedCalls} from "../scoring/responseCache.ts";
import type {SheetRow} from "../scoring/types.ts";
import type {ScoringRequest} from "../scoring/requests.ts";
import {compileChecks, type GradeCall} from "./checks.ts";
import type {ColumnRoles} from "../scoring/modelColumns.ts";
import type {CellResult, CellUsage, Check, ConnectionRef, Variant} from "./types.ts";
import {compileBody} from "./variables.ts";

/** The calls a variant makes on its connection; an SvcClient, or anything with the same shape. */
export type ConnectionCaller = Pick<SvcClient, "chatCompletions" | "responses" | "decisions" | "systemone">;

/** Sends one row of one variant and returns its cell, without rowIndex and variant (the runner adds them). */
export type CellTask = {
    /** The request body for a row, exactly as it will be sent. */
    build(row: SheetRow): Record<string, unknown>,
    /**
     * Sends `request` (from build) and reads the answer; throws what the call threw. With `calls`, every call of the
     * cell (its request and any grader's) goes through the response cache: a cell whose calls were all answered
     * from it has 0 attempts and the latency its answer first took.
     */
    send(request: Record<string, unknown>, row: SheetRow, context: CallContext, calls?: CachedCalls, repeat?: number): Promise<Omit<CellResult, "rowIndex" | "variant">>
};

/** Body fields the runner sets itself: the model is the endpoint's, and replies are read whole, not streamed. */
const ownFields = new Set(["model", "stream"]);

function withoutOwnFields(body: Record<string, unknown> | undefined): Record<string, unknown> {
    return Object.fromEntries(Object.entries(body ?? {}).filter(([key]) => !ownFields.has(key)));
}

/**
 * Compiles what a variant sends for each row against the dataset's columns and their roles; a variable naming no
 * column, a label column the model may not see (modelColumns.ts), a bad template or check throws now (with the
 * field's path), before anything is sent. Checks (graders included) read every column: they are not the model
 * under test.
 * - chat / Responses: the version's body with the row's values filled in, the variant's params over it, sent to
 *   /v1/chat/completions or /v1/responses; the reply's text goes through the checks.
 * - decision: the question set asked of the row through its input mapping (as spreadsheet scoring asks it).
 */
export function compileCellTask(variant: Variant, index: number, roles: ColumnRoles, checks: readonly Check[], clientFor: (connection: ConnectionRef) => ConnectionCaller): CellTask {
    // Resolved at the first send: compiling a task (to check the input, to estimate) makes no client.
    // Through the response cache, a call is keyed by its connection and, on the variant's own connection, the
    // variant's model (which the app's local engine loads); a grader elsewhere by its connection alone.
    // A repeat of a row is kept under its own key, so each asking is answered on its own; a grader's call is keyed
    // by what it reads (the reply), so two repeats with the same reply share its grade.
    const callerFor = (connection: ConnectionRef, calls: CachedCalls | undefined, repeat = 0): ConnectionCaller => {
        const caller = clientFor(connection);
        if (calls === undefined) return caller;
        const own = connectionCacheId(connection) === connectionCacheId(variant.connection);
        return calls.wrap(caller, {connection: connectionCacheId(connection), model: own ? variant.model ?? null : null, ...(repeat === 0 ? {} : {repeat})});
    };
    const client = (calls: CachedCalls | undefined, repeat?: number) => callerFor(variant.connection, calls, repeat);
    const prompt = variant.version.prompt;
    const path = `variants[${index}].version.prompt`;
    if (prompt.kind === "decision") {
        const ask = askQuestions(prompt.questionSet, prompt.input, roles);
        const params = withoutOwnFields(variant.params);
        return {
            build: (row) => ({...ask.build(row).body, ...params}),
            async send(request, _row, context, calls) {
                const asked = await ask.send(client(calls), {format: ask.format, body: request} as ScoringRequest, context);
                // The call's own duration, as chat cells take theirs: from the cache, the one its answer first took.
                const latencyMs = asked.durationMs;
                if (!asked.ok) return {ok: false, request, error: asked.error, latencyMs, attempts: asked.attempts, completedAt: Date.now()};
                const usage = asked.usage === null ? {} : {usage: tokens(asked.usage.input_tokens, asked.usage.output_tokens)};
                return {ok: true, request, response: asked.response, ...usage, latencyMs, attempts: asked.attempts, completedAt: Date.now()};
            }
        };
    }
    const fill = compileBody(prompt.body, roles, `${path}.body`);
    const compiled = compileChecks(checks, roles.columns);
    const params = withoutOwnFields(variant.params);
    const grade = (calls: CachedCalls | undefined): GradeCall => async (body, connection, context) => {
        const {data} = await callerFor(connection ?? variant.connection, calls).decisions(body, context);
        return data.answers[0];
    };
    return {
        build: (row) => ({...withoutOwnFields(fill(row)), ...params, model: modelIds.chat}),
        async send(request, row, context, calls, repeat) {
            const chat = prompt.endpoint === "chat";
            const {data, meta} = chat
                ? await client(calls, repeat).chatCompletions(request as Parameters<SvcClient["chatCompletions"]>[0], context)
                : await client(calls, repeat).responses(request as Parameters<SvcClient["responses"]>[0], context);
            const response = data as unknown as Record<string, unknown>;
            const reply = chat ? chatReply(response) : responsesReply(response);
            const usage = chat ? chatUsage(response) : responsesUsage(response);
            const results = await compiled.run(reply, row, async (body, connection, callContext) => {
                try {
                    return await grade(calls)(body, connection, callContext);
                } catch (error) {
                    // A grader that refused this reply (too long for its context) fails the check, not the cell.
                    if (classifyFailure(error).kind === "row") throw new GraderRefused(classifyFailure(error).error.message);
                    throw error;
                }
            }, context, {request, response}).catch((error: unknown) => {
                if (error instanceof GraderRefused) return compiled.names.map((name) => ({name, pass: false, score: 0, detail: `grader refused: ${error.message}`}));
                throw error;
            });
            return {ok: true, request, response, reply, checks: results, ...(usage === undefined ? {} : {usage}), latencyMs: meta.durationMs, attempts: meta.attempts, completedAt: Date.now()};
        }
    };
}

class GraderRefused extends Error {}

function tokens(promptTokens: number, completionTokens: number): CellUsage {
    return {promptTokens, completionTokens, totalTokens: promptTokens + completionTokens};
}

/** The first choice's message text (content parts joined); "" when it has none (a tool call). */
export function chatReply(response: Record<string, unknown>): string {
    const choices = response.choices as Array<{message?: {content?: unknown}}> | undefined;
    return contentText(choices?.[0]?.message?.content);
}

/** A Responses object's output text: `output_text` when present, else its message parts' text in order. */
export function responsesReply(response: Record<string, unknown>): string {
    if (typeof response.output_text === "string") return response.output_text;
    const output = response.output as Array<{type?: string, content?: unknown}> | undefined;
    return (output ?? []).filter((item) => item.type === "message").map((item) => contentText(item.content)).join("");
}

function contentText(content: unknown): string {
    if (typeof content === "string") return content;
    if (Array.isArray(content)) return content.map((part: {text?: unknown}) => typeof part?.text === "string" ? part.text : "").join("");
    return "";
}

function chatUsage(response: Record<string, unknown>): CellUsage | undefined {
    const usage = response.usage as {prompt_tokens?: number, completion_tokens?: number} | undefined;
    return usage?.prompt_tokens === undefined ? undefined : tokens(usage.prompt_tokens, usage.completion_tokens ?? 0);
}

function responsesUsage(response: Record<string, unknown>): CellUsage | undefined {
    const usage = response.usage as {input_tokens?: number, output_tokens?: number} | null | undefined;
    return usage?.input_tokens === undefined ? undefined : tokens(usage.input_tokens, usage.output_tokens ?? 0);
}
