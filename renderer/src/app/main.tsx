// The page's entry. The stores that persist (theme, presets, the question set ...) read their saved documents as their
// modules are first evaluated, so the app is imported only once those documents are loaded from the gateway.
import {loadAppData} from "../gateway/appData.ts";
import {moveEarlierOrigins} from "../gateway/earlierOrigins.ts";
import {loadDatasets} from "../features/datasets/datasetStore.ts";
import {loadPromptItems} from "../features/versions/versionStore.ts";

// The lists of datasets and saved prompts come with them (rows and versions are read when one is opened).
// An earlier version's data, kept in this browser's storage under other origins, is moved in first, so it is read with the rest.
void moveEarlierOrigins().then(() => Promise.all([loadAppData(), loadDatasets(), loadPromptItems()])).then(() => import("./mount.tsx"));
