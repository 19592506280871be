import {activeConnection} from "../../gateway/activeConnection.ts";
import type {Connection} from "../../gateway/types.ts";
import {currentInput} from "../input/useResolvedInput.ts";
import {buildDecisionRequest} from "../model/buildDecisionRequest.ts";
import {checkDecisionRequest} from "../model/checkDecisionRequest.ts";
import {draftFromQuestionSet} from "../model/draftFromQuestionSet.ts";
import {toQuestionSet} from "../model/toQuestionSet.ts";
import type {DraftSet} from "../model/types.ts";
import {validateDraft} from "../model/validateDraft.ts";
import {executeDecision, type DecisionRunResult} from "../run/executeDecision.ts";
import {useCompareStore, type CompareSide} from "../state/useCompareStore.ts";
import {useDecisionInputStore} from "../state/useDecisionInputStore.ts";
import {useQuestionSetStore} from "../state/useQuestionSetStore.ts";

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

let controller: AbortController | null = null;

/** Runs both sides on the builder's current input at the same time. */
export async function runCompare() {
    const store = useCompareStore.getState();
    if (store.running) return;
    controller = new AbortController();
    const signal = controller.signal;
    store.set({running: true, results: null});
    try {
        const [a, b] = await Promise.all([runSide(store.a, signal), runSide(store.b, signal)]);
        store.set({results: {a, b}});
    } finally {
        controller = null;
        store.set({running: false});
    }
}

export function stopCompare() {
    controller?.abort();
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
