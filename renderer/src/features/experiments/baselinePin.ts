// The open experiment's pinned baseline: a kept earlier run, its id kept with the experiment's record in the app's data
// folder (so the pin survives a reload), read back and handed to the summary worker, which tests each summary
// against it.
import {useExperimentStore} from "./experimentStore.ts";
import {keptRun, savedExperiments} from "./savedExperiments.ts";
import {setSummaryBaseline} from "./summaryClient.ts";

const set = (change: Parameters<ReturnType<typeof useExperimentStore.getState>["set"]>[0]) => useExperimentStore.getState().set(change);
const stillOpen = (id: string) => useExperimentStore.getState().open?.id === id;

/** Shows the baseline `baselineId` of the open experiment `openId` (null: none), read from the kept runs. */
export async function showBaseline(openId: string, baselineId: string | null, justOpened = false) {
    set({baseline: baselineId === null ? null : {id: baselineId, name: null, createdAt: null, problem: null}, baselineComparison: null});
    if (baselineId === null) {
        // A worker just started has no baseline: nothing to take back.
        if (!justOpened) setSummaryBaseline(null);
        return;
    }
    try {
        const loaded = await savedExperiments.load(baselineId, () => undefined);
        if (!stillOpen(openId)) return;
        set({baseline: {id: baselineId, name: loaded.spec.name, createdAt: loaded.record.createdAt, problem: null}});
        setSummaryBaseline(keptRun(loaded));
    } catch (error) {
        if (!stillOpen(openId)) return;
        set({baseline: {id: baselineId, name: null, createdAt: null, problem: (error as Error).message}});
        if (!justOpened) setSummaryBaseline(null);
    }
}

/** Pins a kept run as the open experiment's baseline, or unpins it (null): saved first, then shown. */
export async function pinBaseline(baselineId: string | null) {
    const open = useExperimentStore.getState().open;
    if (open === null) return;
    try {
        await savedExperiments.pinBaseline(open.id, baselineId);
    } catch (error) {
        set({error: `Could not ${baselineId === null ? "unpin" : "pin"} the baseline: ${(error as Error).message}`});
        return;
    }
    await showBaseline(open.id, baselineId);
}
