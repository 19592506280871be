import type {HistoryKind} from "../history/types.ts";

// One in-flight request per playground; the Stop button aborts it. Kept outside the stores because an
// AbortController is not state to render or persist.
const controllers = new Map<HistoryKind, AbortController>();

export function beginRun(kind: HistoryKind): AbortController {
    controllers.get(kind)?.abort();
    const controller = new AbortController();
    controllers.set(kind, controller);
    return controller;
}

export function stopRun(kind: HistoryKind) {
    controllers.get(kind)?.abort(new DOMException("Stopped by the user", "AbortError"));
}

export function endRun(kind: HistoryKind, controller: AbortController) {
    if (controllers.get(kind) === controller) controllers.delete(kind);
}
