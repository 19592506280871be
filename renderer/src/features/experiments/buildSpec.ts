// The experiment file an Experiments screen setup stands for, with every problem of the setup said in words before
// anything is sent. The checks of the data itself (variables naming no column, labels outside a question's choices, ...)
// are client/experiments' own; this adds what only the screen knows (a variant without a version, parameters that are
// not JSON).
import type {Check, ConnectionRef, Dataset, ExperimentSpec, PromptVersion, Variant} from "../../../../client/experiments/types.ts";
import {modelIds} from "../../../../protocol/limits.ts";
import {newId} from "../../ui/browser.ts";
import {getVersion, itemVersions} from "../versions/versionStore.ts";
import type {CheckDraft, ExperimentDraft, GraderDraft, VariantDraft} from "./draftStore.ts";

export type BuiltSpec = {spec: ExperimentSpec | null, problems: string[]};

/** The connection a variant names: the local engine or a saved remote profile (resolved by the gateway). */
export function connectionRef(connection: string): ConnectionRef {
    return {profile: connection};
}

/** The version a variant runs: the one it names, or its item's latest. */
export function versionOf(variant: Pick<VariantDraft, "itemId" | "version">): PromptVersion | null {
    if (variant.itemId === null) return null;
    return variant.version === null ? itemVersions(variant.itemId)[0] ?? null : getVersion(variant.itemId, variant.version);
}

function parseParams(text: string): Record<string, unknown> | string {
    if (text.trim() === "") return {};
    try {
        const value = JSON.parse(text) as unknown;
        if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
        return "must be a JSON object, like {\"temperature\": 0}";
    } catch (error) {
        return `is not JSON (${(error as Error).message})`;
    }
}

function parsePrice(text: string): number | null | string {
    if (text.trim() === "") return null;
    const value = Number(text);
    return Number.isFinite(value) && value >= 0 ? value : "must be a number of 0 or more";
}

function variantOf(draft: VariantDraft, problems: string[]): Variant | null {
    const label = `Variant ${draft.name || "(unnamed)"}`;
    if (draft.name.trim() === "") problems.push("Every variant needs a name.");
    const version = versionOf(draft);
    if (version === null) {
        problems.push(`${label}: choose a saved prompt or question set version.`);
        return null;
    }
    const params = parseParams(draft.params);
    if (typeof params === "string") problems.push(`${label}: parameters ${params}.`);
    const input = parsePrice(draft.inputPrice);
    const output = parsePrice(draft.outputPrice);
    if (typeof input === "string") problems.push(`${label}: input price ${input}.`);
    if (typeof output === "string") problems.push(`${label}: output price ${output}.`);
    return {
        name: draft.name.trim(),
        version,
        connection: connectionRef(draft.connection),
        // A chat variant names its model; none typed: the connection's chat model.
        ...version.prompt.kind === "chat" ? {model: draft.model.trim() || modelIds.chat} : {},
        ...typeof params === "object" && Object.keys(params).length > 0 ? {params} : {},
        ...typeof input === "number" && typeof output === "number" ? {prices: {inputPerMillion: input, outputPerMillion: output}} : {}
    };
}

export function checkOf(draft: CheckDraft, problems: string[]): Check | null {
    switch (draft.kind) {
        case "equals":
        case "contains":
            if (draft.column === "") {
                problems.push(`The "${draft.kind}" check needs the column holding the expected value.`);
                return null;
            }
            return {kind: draft.kind, column: draft.column, ...draft.caseSensitive ? {caseSensitive: true} : {}};
        case "regex":
            if (draft.pattern === "") {
                problems.push("The regex check needs a pattern.");
                return null;
            }
            return {kind: "regex", pattern: draft.pattern, ...draft.flags === "" ? {} : {flags: draft.flags}};
        case "is_json":
            return {kind: "is_json"};
        case "json_schema":
            try {
                const schema = JSON.parse(draft.schema) as unknown;
                if (schema === null || typeof schema !== "object" || Array.isArray(schema)) throw new Error("a schema is a JSON object");
                return {kind: "json_schema", schema: schema as Record<string, unknown>};
            } catch (error) {
                problems.push(`The JSON schema check's schema does not read: ${(error as Error).message}.`);
                return null;
            }
    }
}

export function graderOf(draft: GraderDraft, problems: string[]): Check | null {
    if (!draft.enabled) return null;
    const threshold = Number(draft.threshold);
    if (draft.name.trim() === "") problems.push("The grader needs a name (its metrics are pass:<name> and score:<name>).");
    if (draft.question.trim() === "") problems.push("The grader needs its yes/no question.");
    if (!(threshold >= 0 && threshold <= 1)) problems.push("The grader's threshold must be a number from 0 to 1.");
    return {kind: "grader", name: draft.name.trim(), question: draft.question, template: draft.template, threshold: Number.isFinite(threshold) ? threshold : 0.5,
        ...(draft.humanLabelColumn ? {humanLabelColumn: draft.humanLabelColumn} : {}), ...(draft.calibration === undefined ? {} : {calibration: draft.calibration})};
}

/** The experiment file of `draft` over `dataset`; `spec` is null while a problem stops it from being built. */
export function buildSpec(draft: ExperimentDraft, dataset: Dataset | null): BuiltSpec {
    const problems: string[] = [];
    if (dataset === null) problems.push("Choose a dataset (make one on the Datasets screen).");
    if (draft.variants.length === 0) problems.push("Add at least one variant; two or more to compare them.");
    const names = draft.variants.map((variant) => variant.name.trim());
    if (new Set(names).size !== names.length) problems.push("Two variants have the same name: each column of the results needs its own.");
    const variants = draft.variants.map((variant) => variantOf(variant, problems));
    const chat = variants.some((variant) => variant?.version.prompt.kind === "chat");
    const checks = [...draft.checks.map((check) => checkOf(check, problems)), graderOf(draft.grader, problems)];
    if (!chat && checks.some((check) => check !== null)) problems.push("Checks and the grader apply to chat variants; these variants are all question sets.");
    if (problems.length > 0 || dataset === null) return {spec: null, problems};
    return {
        problems,
        spec: {
            format: "svc-experiment",
            version: 1,
            id: `exp-${newId()}`,
            name: draft.name.trim() || `${dataset.name}: ${names.join(" vs ")}`,
            dataset,
            sample: draft.sample,
            variants: variants as Variant[],
            checks: [...checks.filter((check): check is Check => check !== null), ...draft.keptChecks ?? []],
            seed: draft.seed,
            ...(draft.cluster ? {cluster: draft.cluster} : {}),
            ...((draft.repeats ?? 1) > 1 ? {repeats: draft.repeats} : {}),
            concurrency: draft.concurrency,
            createdAt: Date.now()
        }
    };
}
