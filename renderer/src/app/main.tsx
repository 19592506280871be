// The page's entry. The stores that persist (theme, presets, the question set ...) read their saved documents as their
// modules are first evaluated, so the app is imported only once those documents are loaded from the gateway.
import {loadAppData} from "../gateway/appData.ts";
import {moveEarlierOrigins} from "../gateway/earlierOrigins.ts";
import {loadDatasets} from "../features/datasets/datasetStore.ts";

// The datasets' list comes with them (their rows are read when a dataset is opened).
// An earlier version's data, kept in this browser's storage under other origins, is moved in first, so it is read with the rest.
void moveEarlierOrigins().then(() => Promise.all([loadAppData(), loadDatasets()])).then(() => import("./mount.tsx"));
