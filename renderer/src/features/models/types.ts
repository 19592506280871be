// The models API's shapes, from the gateway contract (protocol/gateway), so the screen and the gateway cannot drift.
import type {DownloadJob, ModelsState, GpuReport} from "../../../../protocol/gateway/contract.ts";

export type {DownloadJob, GpuReport, ModelsState};

export type LibraryModel = ModelsState["models"][number];
export type CatalogEntry = ModelsState["catalog"][number];
export type PartialDownload = ModelsState["partial"][number];
export type ModelRole = LibraryModel["roles"][number];
export type LifecycleSettings = ModelsState["settings"];
export type GpuBackend = GpuReport["backends"][number];
