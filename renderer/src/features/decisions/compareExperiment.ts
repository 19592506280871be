// The Compare tab as an experiment: both sides' question sets on their connections over a one-row dataset holding the
// Build tab's input, opened on the Experiments screen (kept, run again, exported like any experiment).
import {activeConnection} from "../../gateway/gatewayState.ts";
import {oneRowOf, openAsExperiment, type StudioSide} from "../experiments/fromStudio.ts";
import {toQuestionSet} from "../questionSet/draft.ts";
import {currentInput} from "./decisionInput.ts";
import {sideConnection, sideDraft} from "./run.ts";
import {useCompareStore} from "./studioState.ts";

/** Opens the comparison as an experiment; answers why not when a side or the input is not ready. */
export async function openCompareAsExperiment(): Promise<{ok: true} | {ok: false, text: string}> {
    const input = currentInput();
    if (input.input === null) return {ok: false, text: `The input is not ready: ${input.error}`};
    const {a, b} = useCompareStore.getState();
    const sides: StudioSide[] = [];
    for (const [letter, side] of [["A", a], ["B", b]] as const) {
        const picked = sideDraft(side);
        if (picked.draft === null) return {ok: false, text: `Side ${letter}: ${picked.error}`};
        const connection = sideConnection(side);
        if (connection === null) return {ok: false, text: `Side ${letter}: no remote connection is active`};
        sides.push({label: `studio ${letter}`, questionSet: toQuestionSet(picked.draft), connection: connection.kind === "local" ? "local" : activeConnection().id});
    }
    return openAsExperiment({name: `Decision studio compare, ${new Date().toLocaleString("en-GB")}`, ...oneRowOf(input.input), sides});
}
