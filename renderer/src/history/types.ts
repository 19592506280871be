import type {JsonBody} from "../../../client/sdk/index.ts";
import type {ErrorInfo, RunStatus, RunTiming} from "../runs/types.ts";

export type HistoryKind = "chat" | "responses" | "completions";

/** One run as stored locally: what was sent, what came back, how long it took. Never a key. */
export type HistoryEntry = {
    id: string,
    kind: HistoryKind,
    createdAt: number,
    connectionName: string,
    connectionKind: "local" | "remote",
    request: JsonBody,
    status: Exclude<RunStatus, "idle" | "running">,
    /** The reply shown at the end of the run (ChatReply or ResponsesReply). */
    reply: unknown,
    error?: ErrorInfo,
    timing: RunTiming
};
