import {gatewayFetch} from "../../gateway/gatewayFetch.ts";
import type {GatewayState} from "../../gateway/types.ts";
import type {DownloadJob, GpuReport, LifecycleSettings, ModelRole, ModelsState} from "./types.ts";

/** A model id is its file name: always sent URL-encoded. */
const model = (id: string) => `/models/${encodeURIComponent(id)}`;

/** The gateway's `/gateway/api/models...` routes, and starting the engine on a library model. */
export const modelsApi = {
    state: () => gatewayFetch<ModelsState>("/models"),
    gpu: (refresh = false) => gatewayFetch<{gpu: GpuReport}>(refresh ? "/models/gpu?refresh" : "/models/gpu"),
    download: (request: {source: string, fileName?: string} | {catalogId: string}) => gatewayFetch<{download: DownloadJob}>("/models/download", {method: "POST", body: request}),
    cancelDownload: (id: string) => gatewayFetch<{download: DownloadJob}>(`/models/downloads/${encodeURIComponent(id)}`, {method: "DELETE"}),
    setDefault: (id: string) => gatewayFetch<ModelsState>(`${model(id)}/default`, {method: "POST", body: {}}),
    setRole: (role: ModelRole, modelId: string | null) => gatewayFetch<ModelsState>("/models/roles", {method: "POST", body: {role, modelId}}),
    remove: (id: string) => gatewayFetch<ModelsState>(model(id), {method: "DELETE"}),
    configure: (settings: Partial<LifecycleSettings>) => gatewayFetch<ModelsState>("/models/settings", {method: "POST", body: settings}),
    load: (modelId: string) => gatewayFetch<GatewayState>("/engine/start", {method: "POST", body: {modelId}})
};
