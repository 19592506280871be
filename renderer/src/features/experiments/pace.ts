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

/**
 * Measures a run's pace as the estimate uses it (seconds per request with `concurrency` in flight): the run's wall time
 * from its first sent cell to its last, shared among the variants by the latency their cells took, per cell, times the
 * requests in flight. The same run estimated again with these paces takes its own time, overheads (the gateway, the
 * saving of each cell, a busy machine) included, which the requests' latency alone leaves out.
 */
export function paceRecorder(variants: readonly Variant[], concurrency: number) {
    const sums = variants.map(() => ({seconds: 0, count: 0}));
    let first: number | null = null, last = 0;
    return {
        add(cell: CellResult) {
            const sum = sums[cell.variant];
            if (sum === undefined || !cell.ok) return;
            const now = performance.now();
            first ??= now - cell.latencyMs;
            last = now;
            sum.seconds += cell.latencyMs / 1000;
            sum.count++;
        },
        save() {
            const latency = sums.reduce((total, sum) => total + sum.seconds, 0);
            if (first === null || latency <= 0) return;
            const wall = (last - first) / 1000;
            const measured = Object.fromEntries(variants.flatMap((variant, index) => sums[index].count === 0 ? []
                : [[paceKey(variant), wall * (sums[index].seconds / latency) / sums[index].count * concurrency]]));
            usePaceStore.setState((state) => ({seconds: {...state.seconds, ...measured}}));
        }
    };
}
