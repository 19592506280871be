// What the gateway could not read of the saved scoring jobs or experiments (a damaged record or result, a file of an
// old folder kept aside at the upgrade), said in the app's note until dismissed; the rest loads.
import type {SavedItemKind} from "../../../protocol/gateway/contract.ts";
import {reportAppDataProblem} from "./appData.ts";
import {gatewayApi} from "./gatewayApi.ts";

/**
 * Says `problems` (the gateway's sentences; none: the note goes) under `about`. Dismiss stops the gateway saying what
 * it kept aside of the old folders of `kind`; what is left out is said again when it is read again.
 */
export function reportSavedItemProblems(kind: SavedItemKind, problems: string[], about = `saved-${kind}`): void {
    reportAppDataProblem(about, problems.length === 0 ? null : problems.join(" "), [{label: "Dismiss", run: () => {
        reportAppDataProblem(about, null);
        void gatewayApi.acknowledgeItemProblems(kind).catch(() => undefined);
    }}]);
}
