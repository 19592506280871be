// Asking the question set: the request a draft makes of the current input, one decision request on a connection (kept
// in History), the builder's run, and the two sides of a compare.
import type {ScoringRequest, QuestionSet} from "../../../../client/scoring/index.ts";
import {HttpApiError} from "../../../../client/sdk/index.ts";
import {svcClientFor, activeConnection} from "../../gateway/gatewayState.ts";
import type {Connection} from "../../gateway/types.ts";
import {toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {saveRun} from "../playground/runs.ts";
import type {RunShortcut} from "../playground/runViews.tsx";
import {toQuestionSet, type DraftSet} from "../questionSet/draft.ts";
import {useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {answerViews, buildDecisionRequest, checkDecisionRequest, withLabelMass} from "../questionSet/requests.ts";
import {validateDraft} from "../questionSet/validation.ts";
import {currentInput, type ResolvedInput} from "./decisionInput.ts";
import {type DecisionRunResult, useDecisionInputStore, useDecisionRunStore, useCompareStore, type CompareSide} from "./studioState.ts";

/**
 * The request `draft` makes of an input and its images (as data URLs), as any server is sent it (the local engine also
 * gets `x_svc.label_mass`, added when sent), or why it cannot be made or would be refused, in the server's words.
 */
export function requestFor(draft: DraftSet, input: ResolvedInput, images: readonly string[]): {request: ScoringRequest | null, problem: string | null} {
    if (input.error !== null) return {request: null, problem: input.error};
    const request = buildDecisionRequest(draft, input.input, images);
    const problems = validateDraft(draft);
    if (problems.length > 0) {
        const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""}, listed with the questions)` : "";
        return {request, problem: `question set: ${problems[0].message}${more}`};
    }
    return {request, problem: checkDecisionRequest(request)};
}

const currentImages = () => useDecisionInputStore.getState().images.map((image) => image.dataUrl);

/**
 * Sends one decision request through the gateway to `connection` and reads the answers into cards (calibrated
 * where `set` carries a calibration; with the label mass on the local engine), then keeps the run in History.
 * Never throws: a failure is a result with the error as the server sent it.
 */
export async function executeDecision(set: QuestionSet, asked: ScoringRequest, connection: Connection, signal: AbortSignal): Promise<DecisionRunResult> {
    const started = performance.now();
    // The local engine also reports each answer's label mass; a remote server is never sent the local-only field.
    const request = connection.kind === "local" ? withLabelMass(asked) : asked;
    const base = {sent: true, connectionName: connection.name, format: request.format, body: request.body, response: null, views: null, usage: null, serverTimingMs: null, attempts: null, error: null};
    let result: DecisionRunResult;
    try {
        const client = svcClientFor(connection);
        const {data, meta} = request.format === "decisions"
            ? await client.decisions(request.body, {signal})
            : await client.systemone(request.body, {signal});
        const usage = Object.fromEntries(Object.entries(data.usage ?? {}).filter((entry): entry is [string, number] => typeof entry[1] === "number"));
        result = {
            ...base,
            status: "done",
            response: data,
            views: answerViews(set, {answers: data.answers, ...(data.x_svc === undefined ? {} : {x_svc: data.x_svc})}),
            usage,
            serverTimingMs: meta.serverTimingMs,
            durationMs: meta.durationMs,
            attempts: meta.attempts
        };
    } catch (error) {
        const durationMs = performance.now() - started;
        result = signal.aborted
            ? {...base, status: "stopped", durationMs}
            : {...base, status: "error", durationMs, response: error instanceof HttpApiError ? error.body ?? null : null, error: toErrorInfo(error)};
    }
    await saveRun({
        kind: result.format,
        connectionName: connection.name,
        connectionKind: connection.kind,
        request: request.body,
        status: result.status,
        reply: result.response,
        error: result.error ?? undefined,
        timing: {serverTimingMs: result.serverTimingMs, totalMs: result.durationMs, ...(result.attempts === null ? {} : {attempts: result.attempts})}
    });
    return result;
}

/** A run refused before it was sent: the problem as its error. */
function refused(connectionName: string, format: DraftSet["format"], body: unknown, message: string): DecisionRunResult {
    return {status: "error", sent: false, connectionName, format, body, response: null, views: null, usage: null, serverTimingMs: null, durationMs: 0, attempts: null, error: {message}};
}

let buildController: AbortController | null = null;
/** Counts the times the builder's set was replaced: a run that ends after its set was replaced shows nothing. */
let generation = 0;

/** Stops the runs in flight and drops what they would show (the set they asked about was replaced). */
export function abandonRuns() {
    generation++;
    stopBuild();
    stopCompare();
}

/**
 * Asks the builder's questions about the current input on the active connection. A set or input the server
 * would refuse is not sent: its problem shows as the run's error, in the server's words.
 */
export async function runBuild() {
    const store = useDecisionRunStore.getState();
    if (store.running) return;
    const {draft} = useQuestionSetStore.getState();
    const connection = activeConnection();
    const {request, problem} = requestFor(draft, currentInput(), currentImages());
    if (request === null || problem !== null) return store.set({result: refused(connection.name, draft.format, request?.body ?? null, problem ?? "")});

    buildController = new AbortController();
    const mine = generation;
    store.set({running: true});
    try {
        const result = await executeDecision(toQuestionSet(draft), request, connection, buildController.signal);
        if (mine === generation) store.set({result});
    } finally {
        buildController = null;
        store.set({running: false});
    }
}

export function stopBuild() {
    buildController?.abort();
}

/** Ctrl/Cmd+Enter in the studio: Run on the build tab, Run both on the compare tab. */
export const decisionRunShortcut: RunShortcut = {
    run: () => useDecisionRunStore.getState().tab === "build" ? runBuild() : runCompare(),
    running: () => useDecisionRunStore.getState().tab === "build" ? useDecisionRunStore.getState().running : useCompareStore.getState().running
};

const localConnection: Connection = {id: "local", kind: "local", name: "Local engine", hasKey: false};

/** The connection a side asks: the local engine, or the active connection when it is a remote one. */
export function sideConnection(side: CompareSide): Connection | null {
    if (side.connection === "local") return localConnection;
    const active = activeConnection();
    return active.kind === "remote" ? active : null;
}

/** The draft a side asks: the builder's, or variant B. */
export function sideDraft(side: CompareSide): {draft: DraftSet, error: null} | {draft: null, error: string} {
    if (side.set === "current") return {draft: useQuestionSetStore.getState().draft, error: null};
    const {variant} = useCompareStore.getState();
    if (variant === null) return {draft: null, error: "variant B is empty: copy the current set into it, open a file, or start one"};
    if (variant.jsonError !== null) return {draft: null, error: `variant B: ${variant.jsonError}`};
    return {draft: variant.draft, error: null};
}

let compareController: AbortController | null = null;

/** Runs both sides on the builder's current input at the same time. */
export async function runCompare() {
    const store = useCompareStore.getState();
    if (store.running) return;
    compareController = new AbortController();
    const signal = compareController.signal;
    const mine = generation;
    store.set({running: true, results: null});
    try {
        const [a, b] = await Promise.all([runSide(store.a, signal), runSide(store.b, signal)]);
        if (mine === generation) store.set({results: {a, b}});
    } finally {
        compareController = null;
        store.set({running: false});
    }
}

export function stopCompare() {
    compareController?.abort();
}

async function runSide(side: CompareSide, signal: AbortSignal): Promise<DecisionRunResult> {
    const connection = sideConnection(side);
    const picked = sideDraft(side);
    if (connection === null) return refused("–", picked.draft?.format ?? "decisions", null, "no remote connection is active: activate one on the Engine & connections screen");
    if (picked.error !== null) return refused(connection.name, "decisions", null, picked.error);
    const {request, problem} = requestFor(picked.draft, currentInput(), currentImages());
    if (request === null || problem !== null) return refused(connection.name, picked.draft.format, request?.body ?? null, problem ?? "");
    return executeDecision(toQuestionSet(picked.draft), request, connection, signal);
}
