import {AddConnectionForm} from "../components/AddConnectionForm.tsx";
import {ApiErrorView} from "../components/ApiErrorView.tsx";
import {ConnectionsList} from "../components/ConnectionsList.tsx";
import {EngineCard} from "../components/EngineCard.tsx";
import {useGatewayState} from "../gateway/useGatewayState.ts";
import {toErrorInfo} from "../runs/toErrorInfo.ts";

/** Engine & connections: the local engine's state and controls, and the connection profiles. */
export function EngineScreen() {
    const {data: state, error, isLoading} = useGatewayState();
    return (
        <div className="page" data-testid="engine-screen">
            {isLoading && <div className="muted">Reading the gateway state…</div>}
            {error && <ApiErrorView error={toErrorInfo(error)} />}
            {state && (
                <div className="page-grid">
                    <EngineCard engine={state.engine} />
                    <ConnectionsList state={state} />
                    <AddConnectionForm mode={state.mode} />
                </div>
            )}
        </div>
    );
}
