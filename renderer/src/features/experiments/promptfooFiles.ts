// promptfoo configs in the app. Opened (Experiments → History → Open a file…, the config picked with the files it
// names): the config is imported with the command line's importer, its `file://` references read from the files
// picked with it (by name), and every variant is put on the app's local engine and its model; the result is an
// experiment file the app then keeps and opens as it opens any other. Exported (the open experiment's Export bar):
// written by the command line's exporter, the local engine's variants at the engine's own address.
import {serializeExperimentSpec} from "../../../../client/experiments/experimentFile.ts";
import {ImportError, type SourceFiles} from "../../../../client/experiments/import/importProblems.ts";
import {exportPromptfooConfig} from "../../../../client/experiments/import/promptfoo/exportPromptfoo.ts";
import {importPromptfooConfig} from "../../../../client/experiments/import/promptfoo/importPromptfoo.ts";
import type {Dataset, ExperimentSpec} from "../../../../client/experiments/types.ts";

/** A file picked in the browser: its name and contents. */
export type PickedFile = {name: string, text(): Promise<string>, stream(): ReadableStream<Uint8Array>};

/** Whether a pick is a promptfoo config (a YAML file among the files). */
export function isPromptfooPick(files: readonly PickedFile[]): boolean {
    return files.some((file) => /\.ya?ml$/i.test(file.name));
}

/** A path's last part: a reference `file://data/tests.csv` is found as the picked `tests.csv`. */
function baseName(path: string): string {
    return path.split(/[\\/]/).pop() ?? path;
}

/** The picked files as an importer's source: each reference resolved to the picked file of the same name. */
export function pickedSource(files: readonly PickedFile[]): SourceFiles {
    const find = (path: string) => {
        const file = files.find((item) => item.name === baseName(path));
        if (file === undefined) throw Object.assign(new Error(`${baseName(path)} was not picked`), {code: "ENOENT"});
        return file;
    };
    return {
        resolve: (_from, reference) => baseName(reference),
        readText: async (path) => find(path).text(),
        chunks: (path) => streamChunks(() => find(path).stream())
    };
}

async function* streamChunks(open: () => ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
    const reader = open().getReader();
    for (;;) {
        const {done, value} = await reader.read();
        if (done) return;
        yield value;
    }
}

/**
 * The experiment file of a picked promptfoo config, and what to tell the person: what was not imported, or why
 * nothing was (a file it names that was not picked is said by name: pick it with the config).
 */
export async function promptfooExperiment(files: readonly PickedFile[], createdAt: number): Promise<{text: string, lines: string[]} | {error: string}> {
    const config = files.find((file) => /\.ya?ml$/i.test(file.name))!;
    try {
        const id = config.name.replace(/\.ya?ml$/i, "") || "promptfoo";
        const {spec, report} = await importPromptfooConfig(config.name, pickedSource(files), {id, createdAt});
        // The providers' models are names on their servers, not models of the local library: the engine's own runs them.
        const local = {...spec, variants: spec.variants.map(({model: _model, ...variant}) => ({...variant, connection: {profile: "local"}}))};
        const lines = [...report.lines(), "note: every variant runs on the local engine's model here; choose another connection or model in Setup"];
        return {text: serializeExperimentSpec(local), lines};
    } catch (error) {
        if (error instanceof ImportError) {
            const before = error.report?.lines() ?? [];
            const missing = /no such file: (.+)$/.exec(error.message);
            return {error: [...before, missing !== null ? `${error.message} (pick it together with ${config.name})` : error.message].join("\n")};
        }
        throw error;
    }
}

/**
 * The open experiment as a promptfoo config: variants on the local engine go to `localUrl` (where scripts reach the
 * engine), the others need the command line (`svc-studio export promptfoo` with their base URL). Throws, saying which.
 */
export function promptfooConfigText(spec: ExperimentSpec, dataset: Dataset, localUrl: string | undefined, name: string): string {
    const variants = spec.variants.map((variant) => {
        if (!("profile" in variant.connection)) return variant;
        if (variant.connection.profile !== "local") throw new Error(`variant ${variant.name} runs on a remote connection: export it with svc-studio export promptfoo and the server's base URL`);
        if (localUrl === undefined) throw new Error("the local engine has no address yet (it picks a free port when it starts): start it first");
        return {...variant, connection: {baseUrl: localUrl}};
    });
    return exportPromptfooConfig({...spec, variants}, dataset, name).yaml;
}
