// Asking the question set: one decision request on a connection, the builder's run, and the two sides of a compare.
import type {ScoringRequest, QuestionSet} from "../../../../client/scoring/index.ts";
import {svcClientFor, activeConnection} from "../../gateway/gatewayState.ts";
import type {Connection} from "../../gateway/types.ts";
import {toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {toQuestionSet, type DraftSet} from "../questionSet/draft.ts";
import {draftFromQuestionSet} from "../questionSet/draftFromQuestionSet.ts";
import {useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {answerViews, buildDecisionRequest, checkDecisionRequest, validateDraft, withLabelMass} from "../questionSet/requests.ts";
import {type DecisionRunResult, currentInput, useDecisionInputStore, useDecisionRunStore, useCompareStore, type CompareSide} from "./studioState.ts";

/**
 * Sends one decision request through the gateway to `connection` and reads the answers into cards (calibrated
 * where `set` carries a calibration; with the label mass on the local engine). Never throws: a failure is a result with the error as the server sent it.
 */
export async function executeDecision(set: QuestionSet, asked: ScoringRequest, connection: Connection, signal: AbortSignal): Promise<DecisionRunResult> {
    const started = performance.now();
    // The local engine also reports each answer's label mass; a remote server is never sent the local-only field.
    const request = connection.kind === "local" ? withLabelMass(asked) : asked;
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

let buildController: AbortController | null = null;

/**
 * Asks the builder's questions about the current input on the active connection. A set or input the server
 * would refuse is not sent: its problem shows as the run's error, in the server's words.
 */
export async function runBuild() {
    const store = useDecisionRunStore.getState();
    if (store.running) return;
    const {draft} = useQuestionSetStore.getState();
    const connection = activeConnection();
    const refuse = (message: string) => store.set({result: {status: "error", connectionName: connection.name, format: draft.format, body: null, views: null, usage: null,
        serverTimingMs: null, durationMs: 0, attempts: null, error: {message}}});
    const problems = validateDraft(draft);
    if (problems.length > 0) return refuse(problems[0].message);
    const input = currentInput();
    if (input.error !== null) return refuse(input.error);
    const request = buildDecisionRequest(draft, input.input, useDecisionInputStore.getState().images.map((image) => image.dataUrl));
    const problem = checkDecisionRequest(request);
    if (problem !== null) return refuse(problem);

    buildController = new AbortController();
    store.set({running: true});
    try {
        store.set({result: await executeDecision(toQuestionSet(draft), request, connection, buildController.signal)});
    } finally {
        buildController = null;
        store.set({running: false});
    }
}

export function stopBuild() {
    buildController?.abort();
}

const localConnection: Connection = {id: "local", kind: "local", name: "Local engine", hasKey: false};

/** The connection a side asks: the local engine, or the active connection when it is a remote one. */
export function sideConnection(side: CompareSide): Connection | null {
    if (side.connection === "local") return localConnection;
    const active = activeConnection();
    return active.kind === "remote" ? active : null;
}

/** The draft a side asks: the builder's, or variant B read from its JSON. */
export function sideDraft(side: CompareSide): {draft: DraftSet, error: null} | {draft: null, error: string} {
    if (side.set === "current") return {draft: useQuestionSetStore.getState().draft, error: null};
    const text = useCompareStore.getState().variantText;
    if (text.trim() === "") return {draft: null, error: "variant B is empty: copy the current set into it, or open a file"};
    try {
        return {draft: draftFromQuestionSet(JSON.parse(text)), error: null};
    } catch (error) {
        return {draft: null, error: `variant B: ${(error as Error).message}`};
    }
}

let compareController: AbortController | null = null;

/** Runs both sides on the builder's current input at the same time. */
export async function runCompare() {
    const store = useCompareStore.getState();
    if (store.running) return;
    compareController = new AbortController();
    const signal = compareController.signal;
    store.set({running: true, results: null});
    try {
        const [a, b] = await Promise.all([runSide(store.a, signal), runSide(store.b, signal)]);
        store.set({results: {a, b}});
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
    const refuse = (message: string, format: DraftSet["format"] = "decisions"): DecisionRunResult => ({status: "error", connectionName: connection?.name ?? "–", format, body: null,
        views: null, usage: null, serverTimingMs: null, durationMs: 0, attempts: null, error: {message}});
    if (connection === null) return refuse("no remote connection is active: activate one on the Engine & connections screen");
    if (picked.error !== null) return refuse(picked.error);
    const problems = validateDraft(picked.draft);
    if (problems.length > 0) return refuse(problems[0].message, picked.draft.format);
    const input = currentInput();
    if (input.error !== null) return refuse(input.error, picked.draft.format);
    const request = buildDecisionRequest(picked.draft, input.input, useDecisionInputStore.getState().images.map((image) => image.dataUrl));
    const problem = checkDecisionRequest(request);
    if (problem !== null) return refuse(problem, picked.draft.format);
    return executeDecision(toQuestionSet(picked.draft), request, connection, signal);
}
