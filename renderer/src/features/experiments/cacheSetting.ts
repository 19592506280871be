// Whether the app's experiments reuse answers: through the response cache (gateway/responseCache.ts) a cell whose
// request was answered before is not sent again. On by default; kept in the app's data folder.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import {appDataStorage} from "../../gateway/appData.ts";

export const useCacheSetting = create<{reuseAnswers: boolean}>()(persist((): {reuseAnswers: boolean} => ({reuseAnswers: true}), {
    name: "svc-studio-experiment-cache",
    storage: createJSONStorage(() => appDataStorage)
}));
