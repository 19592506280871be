// "Run again": a kept experiment's setup as a new experiment, each variant on its item's latest version (the point of
// running again after a version changed), on the dataset as it is saved now (or as the experiment kept it).
import type {Check, ExperimentSpec} from "../../../../client/experiments/types.ts";
import {getDataset} from "../datasets/datasetStore.ts";
import {buildSpec} from "./buildSpec.ts";
import {defaultGrader, newCheck, newVariant, useDraftStore, type CheckDraft, type ExperimentDraft, type GraderDraft, type VariantDraft} from "./draftStore.ts";
import {experimentBusy, startExperiment} from "./experimentRun.ts";
import {useExperimentStore} from "./experimentStore.ts";
import {savedExperiments} from "./savedExperiments.ts";

/** The screen's setup for an experiment: what Run again and "Open as experiment" start from. */
export function draftFromSpec(spec: ExperimentSpec, latest: boolean): ExperimentDraft {
    const variants: VariantDraft[] = [];
    for (const variant of spec.variants) {
        const connection = "profile" in variant.connection ? variant.connection.profile : "local";
        variants.push(newVariant(variants, {
            name: variant.name, itemId: variant.version.itemId, version: latest ? null : variant.version.version, connection, model: variant.model ?? "",
            params: variant.params === undefined ? "" : JSON.stringify(variant.params),
            inputPrice: variant.prices ? String(variant.prices.inputPerMillion) : "", outputPrice: variant.prices ? String(variant.prices.outputPerMillion) : ""
        }));
    }
    const checks: CheckDraft[] = [];
    let grader: GraderDraft = defaultGrader;
    for (const check of spec.checks) {
        if (check.kind === "grader") grader = {enabled: true, name: check.name, question: check.question, template: check.template, threshold: String(check.threshold ?? 0.5)};
        else checks.push(checkDraft(check));
    }
    return {name: spec.name, datasetId: "id" in spec.dataset ? spec.dataset.id : null, sample: spec.sample, variants, checks, grader, seed: spec.seed, concurrency: spec.concurrency ?? 4};
}

function checkDraft(check: Exclude<Check, {kind: "grader"}>): CheckDraft {
    switch (check.kind) {
        case "equals":
        case "contains":
            return newCheck({kind: check.kind, column: check.column, caseSensitive: check.caseSensitive ?? false});
        case "regex":
            return newCheck({kind: "regex", pattern: check.pattern, flags: check.flags ?? ""});
        case "is_json":
            return newCheck({kind: "is_json"});
        case "json_schema":
            return newCheck({kind: "json_schema", schema: JSON.stringify(check.schema, null, 2)});
    }
}

/** Starts a kept experiment again with its variants' latest versions; a setup with problems opens in Setup instead. */
export async function runAgain(id: string) {
    if (experimentBusy()) return;
    const set = useExperimentStore.getState().set;
    try {
        const saved = await savedExperiments.load(id, () => undefined);
        const draft = draftFromSpec(saved.spec, true);
        const dataset = (draft.datasetId === null ? null : getDataset(draft.datasetId)) ?? saved.dataset;
        useDraftStore.getState().replace({...draft, name: `${saved.spec.name.replace(/ · again$/, "")} · again`});
        const built = buildSpec(useDraftStore.getState().draft, dataset);
        if (built.spec === null) {
            set({tab: "setup", error: null});
            return;
        }
        await startExperiment(built.spec);
    } catch (error) {
        set({error: `Could not run it again: ${(error as Error).message}`});
    }
}
