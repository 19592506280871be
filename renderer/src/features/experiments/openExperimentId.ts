// Which kept experiment the Experiments screen has open, kept in the app's data folder (gateway/appData.ts) so that a
// reload or the next launch opens it again, finished or not (experimentRun.ts restoreOpenExperiment).
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import {appDataStorage} from "../../gateway/appData.ts";

export const useOpenExperimentId = create<{id: string | null}>()(persist(() => ({id: null as string | null}), {
    name: "svc-studio-open-experiment",
    storage: createJSONStorage(() => appDataStorage),
    merge: (saved, current) => {
        const id = (saved as {id?: unknown} | null)?.id;
        return {...current, id: typeof id === "string" ? id : null};
    }
}));

/** Keeps `id` as the open experiment (null: none). */
export function keepOpenExperiment(id: string | null) {
    if (useOpenExperimentId.getState().id !== id) useOpenExperimentId.setState({id});
}
