// OpenAI files picked in Experiments → History → Open a file…, told apart by what they hold: an eval export (the
// eval as `GET /v1/evals/{id}` returns it, one or more of its runs, the items JSONL when a run does not hold them, and
// the first run's output items) becomes an experiment with the command line's importer (`svc-studio import
// openai-eval`), every variant on the app's local engine and its model, as a promptfoo config does; a prompt object
// file (`pmpt_...`) is one to save with its versions.
import {serializeExperimentSpec} from "../../../../client/experiments/experimentFile.ts";
import {ImportError} from "../../../../client/experiments/import/importProblems.ts";
import {importOpenAiEval} from "../../../../client/experiments/import/openai/importOpenAiEval.ts";
import {serializeExperimentResults} from "../../../../client/experiments/resultsFile.ts";
import type {Variant} from "../../../../client/experiments/types.ts";
import {pickedSource, type PickedFile} from "./promptfooFiles.ts";

/** What a pick holds, by file name: an eval with its runs (and data, output items), or a prompt object file. */
export type OpenAiPick =
    | {kind: "eval", evalFile: string, runFiles: string[], dataFile?: string, outputItemsFile?: string}
    | {kind: "prompt", file: PickedFile}
    /** Runs or output items picked without the eval they belong to. */
    | {kind: "without eval", files: string[]};

/** Files larger than this are no OpenAI export (an experiment's results can be): not read to tell. */
const largestExport = 8 << 20;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === "object" && !Array.isArray(value);
const isPromptVersion = (value: unknown) => isObject(value) && [value.id, isObject(value.prompt) ? value.prompt.id : undefined].some((id) => typeof id === "string" && id.startsWith("pmpt_"));

/** The kind of OpenAI JSON a text is, if any. */
function kindOf(value: unknown): "eval" | "run" | "outputs" | "prompt" | null {
    // The app's own files (`svc-experiment`, `svc-results`) say their format; OpenAI's objects say `object`.
    if (isObject(value) && typeof value.format === "string") return null;
    if (isObject(value) && value.object === "eval") return "eval";
    if (isObject(value) && value.object === "eval.run") return "run";
    const list = isObject(value) && value.object === "list" && Array.isArray(value.data) ? value.data : Array.isArray(value) ? value : null;
    if (list !== null && isObject(list[0]) && list[0].object === "eval.run.output_item") return "outputs";
    return isPromptVersion(value) || (list !== null && isPromptVersion(list[0])) ? "prompt" : null;
}

/** The OpenAI eval export or prompt file among the picked files; null when the pick holds neither. */
export async function openAiPick(files: ReadonlyArray<PickedFile & {size?: number}>): Promise<OpenAiPick | null> {
    const kinds: Array<{file: PickedFile, kind: ReturnType<typeof kindOf> | "data"}> = [];
    for (const file of files) {
        if (/\.jsonl$/i.test(file.name)) kinds.push({file, kind: "data"});
        if (!/\.json$/i.test(file.name) || (file.size ?? 0) > largestExport) continue;
        try {
            kinds.push({file, kind: kindOf(JSON.parse(await file.text()))});
        } catch {
            // Not JSON: the experiment file's own reader says so.
        }
    }
    const named = (kind: string) => kinds.filter((entry) => entry.kind === kind).map((entry) => entry.file.name);
    const [evalFile] = named("eval");
    if (evalFile !== undefined) {
        const [dataFile] = named("data");
        const [outputItemsFile] = named("outputs");
        return {kind: "eval", evalFile, runFiles: named("run"), ...(dataFile === undefined ? {} : {dataFile}), ...(outputItemsFile === undefined ? {} : {outputItemsFile})};
    }
    const prompt = kinds.find((entry) => entry.kind === "prompt");
    if (prompt !== undefined) return {kind: "prompt", file: prompt.file};
    const parts = [...named("run"), ...named("outputs")];
    return parts.length === 0 ? null : {kind: "without eval", files: parts};
}

/** Variants on the local engine and its model: OpenAI's models are names on its servers, not in the local library. */
const onLocalEngine = (variants: Variant[]): Variant[] => variants.map(({model: _model, ...variant}) => ({...variant, connection: {profile: "local"}}));

/**
 * The experiment file of a picked eval, its previous run's results when the output items were picked (a results
 * file, kept beside it to compare with), and what to tell the person; or why nothing was imported.
 */
export async function openAiEvalExperiment(files: readonly PickedFile[], pick: Extract<OpenAiPick, {kind: "eval"}>, createdAt: number): Promise<{text: string, previous?: string, lines: string[]} | {error: string}> {
    if (pick.runFiles.length === 0)
        return {error: `${pick.evalFile}: an eval holds no prompt: pick one or more of its runs (each as GET /v1/evals/{eval_id}/runs/{run_id} returns it) together with it`};
    try {
        const id = pick.evalFile.replace(/\.json$/i, "") || "openai-eval";
        const {spec, report, previous} = await importOpenAiEval({...pick, id, createdAt}, pickedSource(files));
        const lines = [...report.lines(), "note: every variant runs on the local engine's model here; choose another connection or model in Setup"];
        const text = serializeExperimentSpec({...spec, variants: onLocalEngine(spec.variants)});
        if (previous === undefined) return {text, lines};
        const earlier = {...previous, experiment: {...previous.experiment, id: `${id}-previous`, name: `${previous.experiment.name} (OpenAI's run)`, variants: onLocalEngine(previous.experiment.variants)}};
        return {text, previous: serializeExperimentResults(earlier), lines};
    } catch (error) {
        if (error instanceof ImportError) {
            const missing = /no such file: (.+)$/.exec(error.message);
            const message = missing !== null ? `${error.message} (pick it together with ${pick.evalFile})` : error.message.replace("pass --data <file.jsonl> with its lines", "pick its items JSONL together with it");
            return {error: [...error.report?.lines() ?? [], message].join("\n")};
        }
        throw error;
    }
}
