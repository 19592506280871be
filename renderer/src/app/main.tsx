// The page's entry. The stores that persist (theme, presets, the question set ...) read their saved documents as their
// modules are first evaluated, so the app is imported only once those documents are loaded from the gateway.
import {loadAppData} from "../gateway/appData.ts";
import {loadDatasets} from "../features/datasets/datasetStore.ts";

// The datasets' list comes with them (their rows are read when a dataset is opened).
void Promise.all([loadAppData(), loadDatasets()]).then(() => import("./mount.tsx"));
