// An experiment's setup back in the screen's terms (variants, checks, grader): what Run again starts from.
import type {Check, ExperimentSpec} from "../../../../client/experiments/types.ts";
import {defaultGrader, newCheck, newVariant, type CheckDraft, type ExperimentDraft, type GraderDraft, type VariantDraft} from "./draftStore.ts";

/**
 * The screen's setup for an experiment. With `latest`, each variant that ran the newest version of its item among the
 * experiment's variants follows that item's latest version; a variant pinned to an older one stays on it, so "v1 vs v2"
 * runs again as "v1 vs v3" once a v3 is saved, not as v3 against itself.
 */
export function draftFromSpec(spec: ExperimentSpec, latest: boolean): ExperimentDraft {
    const newest = new Map<string, number>();
    for (const variant of spec.variants) newest.set(variant.version.itemId, Math.max(newest.get(variant.version.itemId) ?? 0, variant.version.version));
    const variants: VariantDraft[] = [];
    for (const variant of spec.variants) {
        const follows = latest && newest.get(variant.version.itemId) === variant.version.version;
        const connection = "profile" in variant.connection ? variant.connection.profile : "local";
        variants.push(newVariant(variants, {
            name: variant.name, itemId: variant.version.itemId, version: follows ? null : variant.version.version, connection, model: variant.model ?? "",
            params: variant.params === undefined ? "" : JSON.stringify(variant.params),
            inputPrice: variant.prices ? String(variant.prices.inputPerMillion) : "", outputPrice: variant.prices ? String(variant.prices.outputPerMillion) : ""
        }));
    }
    const checks: CheckDraft[] = [];
    const keptChecks: Check[] = [];
    let grader: GraderDraft | null = null;
    for (const check of spec.checks) {
        const draft = check.when !== undefined || check.negate === true ? null : checkDraft(check);
        if (draft !== null) checks.push(draft);
        else if (check.kind === "grader" && grader === null && check.when === undefined && check.labels === undefined && check.levels === undefined)
            grader = {enabled: true, name: check.name, question: check.question, template: check.template, threshold: String(check.threshold ?? 0.5),
                ...(check.humanLabelColumn === undefined ? {} : {humanLabelColumn: check.humanLabelColumn}), ...(check.calibration === undefined ? {} : {calibration: check.calibration})};
        else keptChecks.push(check);
    }
    return {name: spec.name, datasetId: "id" in spec.dataset ? spec.dataset.id : null, sample: spec.sample, variants, checks, grader: grader ?? defaultGrader,
        ...(keptChecks.length > 0 ? {keptChecks} : {}), ...(spec.cluster === undefined ? {} : {cluster: spec.cluster}), ...(spec.repeats === undefined ? {} : {repeats: spec.repeats}), seed: spec.seed, concurrency: spec.concurrency ?? 4};
}

/** The screen's draft of a check it edits; null for the kinds it does not (kept as they are). */
function checkDraft(check: Check): CheckDraft | null {
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
        default:
            return null;
    }
}
