// The models API's shapes, taken from the gateway's own types (a type-only import: nothing of electron or native
// reaches the bundle), so the screen and the gateway cannot drift apart.
import type {DownloadJob} from "../../../electron/gateway/ModelDownloads.ts";
import type {ModelsState} from "../../../electron/gateway/ModelsApi.ts";
import type {GpuReport} from "../../../native/gpu/detectGpu.ts";

export type {DownloadJob, GpuReport, ModelsState};

export type LibraryModel = ModelsState["models"][number];
export type CatalogEntry = ModelsState["catalog"][number];
export type PartialDownload = ModelsState["partial"][number];
export type ModelRole = LibraryModel["roles"][number];
export type LifecycleSettings = ModelsState["settings"];
export type GpuBackend = GpuReport["backends"][number];
