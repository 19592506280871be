import type {RunState} from "../runs/types.ts";
import {Icon} from "./Icon.tsx";
import {RunStatusBadge} from "./RunStatusBadge.tsx";

type Props = {run: RunState, onRun: () => void, onStop: () => void, disabledReason?: string | null};

/** Run and Stop, with the run's state; Ctrl/Cmd+Enter runs from anywhere on the screen. */
export function RunBar({run, onRun, onStop, disabledReason}: Props) {
    const running = run.status === "running";
    return (
        <div className="run-bar">
            {running
                ? <button type="button" className="btn btn-danger" onClick={onStop} data-testid="stop-button"><Icon name="stop" /> Stop</button>
                : <button type="button" className="btn btn-primary" onClick={onRun} disabled={Boolean(disabledReason)} title={disabledReason ?? "Ctrl+Enter"} data-testid="run-button"><Icon name="play" /> Run</button>}
            <RunStatusBadge run={run} />
            {run.connectionName && run.status !== "idle" && <span className="muted small">via {run.connectionName}</span>}
            {run.note && <span className="muted small" data-testid="run-note">{run.note}</span>}
            {disabledReason && !running && <span className="field-error inline">{disabledReason}</span>}
        </div>
    );
}
