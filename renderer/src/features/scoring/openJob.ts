// Which saved scoring job the Scoring and Evaluation screens have open, kept in the app's data folder (gateway/appData.ts)
// so that a reload or the next launch opens it again (scoringJob.ts restoreOpenJob).
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import {appDataStorage} from "../../gateway/appData.ts";

export const useOpenJobStore = create<{jobId: string | null}>()(persist(() => ({jobId: null as string | null}), {
    name: "svc-studio-open-scoring-job",
    storage: createJSONStorage(() => appDataStorage),
    merge: (saved, current) => {
        const jobId = (saved as {jobId?: unknown} | null)?.jobId;
        return {...current, jobId: typeof jobId === "string" ? jobId : null};
    }
}));

/** Keeps `jobId` as the open job (null: none). */
export function keepOpenJob(jobId: string | null) {
    if (useOpenJobStore.getState().jobId !== jobId) useOpenJobStore.setState({jobId});
}
