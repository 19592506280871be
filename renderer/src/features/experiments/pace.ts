// How long a request took on each connection and model, measured on the app's last experiment there, kept in the
// app's data folder: the next estimate of the same kind of variant uses it instead of an assumed pace.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import type {CellResult, Variant} from "../../../../client/experiments/types.ts";
import {stableStringify} from "../../../../protocol/decisions/stableStringify.ts";
import {appDataStorage} from "../../gateway/appData.ts";

type PaceState = {
    /** Mean seconds per successful request, by paceKey. */
    seconds: Record<string, number>
};

export const usePaceStore = create<PaceState>()(persist(() => ({seconds: {}}), {
    name: "svc-studio-experiment-pace",
    storage: createJSONStorage(() => appDataStorage)
}));

/** What a request's time depends on: where it goes, the model, the endpoint and (chat) the output budget. */
export function paceKey(variant: Variant): string {
    const prompt = variant.version.prompt;
    const endpoint = prompt.kind === "decision" ? prompt.questionSet.format : prompt.endpoint;
    const body = prompt.kind === "chat" ? {...prompt.body, ...variant.params} : {};
    const budget = body.max_completion_tokens ?? body.max_tokens ?? body.max_output_tokens ?? null;
    return stableStringify({connection: variant.connection, model: variant.model ?? null, endpoint, budget});
}

/** The measured pace of a variant like this one, if one ran before. */
export function measuredPace(variant: Variant): number | undefined {
    return usePaceStore.getState().seconds[paceKey(variant)];
}

/** Sums the latency of a run's successful cells per variant; `save` keeps each variant's mean for the next estimate. */
export function paceRecorder(variants: readonly Variant[]) {
    const sums = variants.map(() => ({seconds: 0, count: 0}));
    return {
        add(cell: CellResult) {
            const sum = sums[cell.variant];
            if (sum === undefined || !cell.ok) return;
            sum.seconds += cell.latencyMs / 1000;
            sum.count++;
        },
        save() {
            const measured = Object.fromEntries(variants.flatMap((variant, index) => sums[index].count === 0 ? [] : [[paceKey(variant), sums[index].seconds / sums[index].count]]));
            if (Object.keys(measured).length > 0) usePaceStore.setState((state) => ({seconds: {...state.seconds, ...measured}}));
        }
    };
}
