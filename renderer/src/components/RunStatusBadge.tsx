import type {RunState} from "../runs/types.ts";

const labels: Record<RunState["status"], string> = {idle: "ready", running: "streaming…", done: "done", stopped: "stopped", error: "error"};

export function RunStatusBadge({run}: {run: RunState}) {
    const label = run.status === "running" && run.request?.stream !== true ? "waiting…" : labels[run.status];
    return <span className={`status-badge status-${run.status}`} data-testid="run-status">{label}</span>;
}
