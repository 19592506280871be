// History → Open a file… with OpenAI files: an eval export kept as an experiment (and, with its output items, the
// OpenAI run's results as a second one to compare with), or a prompt object file saved with its versions.
import {importOpenAiPromptFile, reportSentence} from "../versions/openAiPromptImport.ts";
import {importExperimentFile} from "./experimentRun.ts";
import {openAiEvalExperiment, openAiPick} from "./openAiFiles.ts";
import type {PickedFile} from "./promptfooFiles.ts";

/** Opens the OpenAI files of a pick; null when it holds none (the pick is some other file). */
export async function openOpenAiFiles(files: readonly PickedFile[]): Promise<{ok: boolean, text: string} | null> {
    const pick = await openAiPick(files);
    if (pick === null) return null;
    if (pick.kind === "without eval")
        return {ok: false, text: `${pick.files.join(", ")} ${pick.files.length === 1 ? "belongs" : "belong"} to an OpenAI eval: pick the eval (its JSON as GET /v1/evals/{eval_id} returns it) together with ${pick.files.length === 1 ? "it" : "them"}. Nothing was kept.`};
    if (pick.kind === "prompt") {
        const saved = await importOpenAiPromptFile(pick.file);
        return saved.ok ? {ok: true, text: `${saved.text} It is on the Versions screen, a version per OpenAI version, ready for experiments.`} : saved;
    }
    const imported = await openAiEvalExperiment(files, pick, Date.now());
    if ("error" in imported) return {ok: false, text: imported.error};
    // The OpenAI run first, so the new experiment is the one left open.
    const earlier = imported.previous === undefined ? null : await importExperimentFile(pick.outputItemsFile ?? pick.evalFile, imported.previous);
    if (earlier !== null && !earlier.ok) return earlier;
    const opened = await importExperimentFile(pick.evalFile, imported.text);
    const kept = earlier === null ? "" : " OpenAI's run is kept beside it with its outputs: tick both in History to compare.";
    return opened.ok ? {...opened, text: `${opened.text}${kept}${reportSentence(imported.lines)}`} : opened;
}
