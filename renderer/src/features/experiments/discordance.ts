// The discordance (the share of rows only one of two variants got right, or passed) that the app's last finished
// experiment on each dataset measured on its primary metric, kept in the app's data folder: the setup's power figure
// for the next experiment on that dataset starts from it instead of an assumed one.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import type {ExperimentSpec, ExperimentSummary} from "../../../../client/experiments/types.ts";
import {measuredDiscordance} from "../../../../client/experiments/power.ts";
import {appDataStorage} from "../../gateway/appData.ts";

/** What a finished run measured: the discordance, on how many rows, and which experiment it was. */
export type MeasuredDiscordance = {discordance: number, rows: number, experiment: string, at: number};

type DiscordanceState = {
    /** By dataset id. */
    byDataset: Record<string, MeasuredDiscordance>
};

export const useDiscordanceStore = create<DiscordanceState>()(persist(() => ({byDataset: {}}), {
    name: "svc-studio-experiment-discordance",
    storage: createJSONStorage(() => appDataStorage)
}));

/** Keeps what a summary measured (power.ts measuredDiscordance) for the experiment's inline dataset. */
export function recordDiscordance(spec: ExperimentSpec, summary: ExperimentSummary): void {
    if (!("id" in spec.dataset)) return;
    const discordance = measuredDiscordance(summary);
    if (discordance === null) return;
    const measured: MeasuredDiscordance = {discordance, rows: summary.rows, experiment: spec.name || spec.id, at: Date.now()};
    const datasetId = spec.dataset.id;
    const kept = useDiscordanceStore.getState().byDataset[datasetId];
    if (kept !== undefined && kept.discordance === measured.discordance && kept.rows === measured.rows && kept.experiment === measured.experiment) return;
    useDiscordanceStore.setState((state) => ({byDataset: {...state.byDataset, [datasetId]: measured}}));
}
