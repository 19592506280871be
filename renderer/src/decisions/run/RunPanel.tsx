import {useEffect, useRef} from "react";
import {Icon} from "../../components/Icon.tsx";
import {activeConnection} from "../../gateway/activeConnection.ts";
import {useGatewayState} from "../../gateway/useGatewayState.ts";
import {useDecisionRunStore} from "../state/useDecisionRunStore.ts";
import {RunResultView} from "./RunResultView.tsx";
import {runBuild, stopBuild} from "./runBuild.ts";

/** Run / Stop for the builder, and the last run's answers. */
export function RunPanel() {
    const running = useDecisionRunStore((state) => state.running);
    const result = useDecisionRunStore((state) => state.result);
    const {data: gateway} = useGatewayState();
    const connection = activeConnection(gateway);
    const status = running ? "running" : result?.status ?? "idle";
    // New answers scroll into view: below a long question list they would otherwise arrive unseen.
    const panel = useRef<HTMLElement>(null);
    useEffect(() => {
        if (result !== null) panel.current?.scrollIntoView({block: "start", behavior: "smooth"});
    }, [result]);
    return (
        <section className="run-panel" data-testid="decision-run-panel" ref={panel}>
            <div className="run-bar">
                {running
                    ? <button type="button" className="btn btn-danger" data-testid="decision-stop" onClick={stopBuild}><Icon name="stop" /> Stop</button>
                    : <button type="button" className="btn btn-primary" data-testid="decision-run" onClick={() => void runBuild()}><Icon name="play" /> Run</button>}
                <span className={`status-badge status-${status === "done" ? "done" : status === "error" ? "error" : status === "stopped" ? "stopped" : status === "running" ? "running" : "idle"}`}
                    data-testid="decision-status">{status}</span>
                <span className="muted small">on {connection.name}</span>
            </div>
            {result
                ? <RunResultView result={result} testId="decision-result" />
                : <div className="reply-empty muted">Run the questions to see one answer card per question.</div>}
        </section>
    );
}
