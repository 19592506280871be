import {activeConnection} from "../../gateway/activeConnection.ts";
import {useGatewayState} from "../../gateway/useGatewayState.ts";
import {useCompareStore, type CompareSide} from "../state/useCompareStore.ts";

type Props = {which: "a" | "b"};

/** What one side of a comparison asks (the current set or variant B) and where (local engine or the active remote). */
export function CompareSideConfig({which}: Props) {
    const side = useCompareStore((state) => state[which]);
    const set = useCompareStore((state) => state.set);
    const {data: gateway} = useGatewayState();
    const active = activeConnection(gateway);
    const change = (patch: Partial<CompareSide>) => set({[which]: {...side, ...patch}});
    return (
        <div className="compare-side-config" data-testid={`compare-config-${which}`}>
            <span className="compare-side-letter">{which.toUpperCase()}</span>
            <select className="input input-sm" value={side.set} aria-label={`Question set of side ${which.toUpperCase()}`} data-testid={`compare-set-${which}`}
                onChange={(event) => change({set: event.target.value as CompareSide["set"]})}>
                <option value="current">Current set (builder)</option>
                <option value="variant">Variant B</option>
            </select>
            <select className="input input-sm" value={side.connection} aria-label={`Connection of side ${which.toUpperCase()}`} data-testid={`compare-connection-${which}`}
                onChange={(event) => change({connection: event.target.value as CompareSide["connection"]})}>
                <option value="local">Local engine</option>
                <option value="remote" disabled={active.kind !== "remote"}>{active.kind === "remote" ? `${active.name} (remote)` : "Remote (activate one first)"}</option>
            </select>
        </div>
    );
}
