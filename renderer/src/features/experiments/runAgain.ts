// "Run again": a kept experiment's setup as a new experiment, each variant on its item's latest version (the point of
// running again after a version changed), on the dataset as it is saved now (or as the experiment kept it).
import {loadDataset} from "../datasets/datasetStore.ts";
import {loadItemVersions} from "../versions/versionStore.ts";
import {buildSpec} from "./buildSpec.ts";
import {useDraftStore} from "./draftStore.ts";
import {experimentBusy, startExperiment} from "./experimentRun.ts";
import {useExperimentStore} from "./experimentStore.ts";
import {savedExperiments} from "./savedExperiments.ts";
import {draftFromSpec} from "./specDraft.ts";

/** Starts a kept experiment again with its variants' latest versions (see draftFromSpec); a setup with problems opens in Setup instead. */
export async function runAgain(id: string) {
    if (experimentBusy()) return;
    const set = useExperimentStore.getState().set;
    try {
        const saved = await savedExperiments.load(id, () => undefined);
        const draft = draftFromSpec(saved.spec, true);
        const dataset = (draft.datasetId === null ? null : await loadDataset(draft.datasetId)) ?? saved.dataset;
        await Promise.all(draft.variants.map((variant) => variant.itemId === null ? null : loadItemVersions(variant.itemId)));
        useDraftStore.getState().replace({...draft, name: `${saved.spec.name.replace(/ · again$/, "")} · again`});
        const built = buildSpec(useDraftStore.getState().draft, dataset);
        if (built.spec === null) {
            set({tab: "setup", error: null});
            return;
        }
        await startExperiment(built.spec);
    } catch (error) {
        set({error: `Could not run it again: ${(error as Error).message}`});
    }
}
