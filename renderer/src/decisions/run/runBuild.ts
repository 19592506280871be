import {activeConnection} from "../../gateway/activeConnection.ts";
import {currentInput} from "../input/useResolvedInput.ts";
import {buildDecisionRequest} from "../model/buildDecisionRequest.ts";
import {checkDecisionRequest} from "../model/checkDecisionRequest.ts";
import {toQuestionSet} from "../model/toQuestionSet.ts";
import {validateDraft} from "../model/validateDraft.ts";
import {useDecisionInputStore} from "../state/useDecisionInputStore.ts";
import {useDecisionRunStore} from "../state/useDecisionRunStore.ts";
import {useQuestionSetStore} from "../state/useQuestionSetStore.ts";
import {executeDecision} from "./executeDecision.ts";

let controller: AbortController | null = null;

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

    controller = new AbortController();
    store.set({running: true});
    try {
        store.set({result: await executeDecision(toQuestionSet(draft), request, connection, controller.signal)});
    } finally {
        controller = null;
        store.set({running: false});
    }
}

export function stopBuild() {
    controller?.abort();
}
