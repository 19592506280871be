// An OpenAI prompt object file (one version, a list of versions, or the API's list, of one `pmpt_...` prompt) saved as
// a Responses prompt with its versions, in one transaction: the importer is the command line's
// (`svc-studio import openai-prompt`), and the item with every version is written at once, so a file that cannot be
// imported, or a save that fails, leaves nothing behind.
import {ImportError, type SourceFiles} from "../../../../client/experiments/import/importProblems.ts";
import {importOpenAiPrompt, savedVersions} from "../../../../client/experiments/import/openai/importOpenAiPrompt.ts";
import {restoreItem, useVersionsStore} from "./versionStore.ts";

/** A picked file: its name and text. */
export type PromptFile = {name: string, text(): Promise<string>};

/** The picked file as the importer's source: it names no other file. */
function singleFile(file: PromptFile): SourceFiles {
    return {
        resolve: (_from, reference) => reference,
        readText: async () => file.text(),
        chunks: () => {
            throw Object.assign(new Error(`${file.name} is read whole`), {code: "EISDIR"});
        }
    };
}

/** "From the file: a; b; c; and 5 more": an import's report in one sentence (empty when nothing was left out). */
export function reportSentence(lines: readonly string[], shown = 3): string {
    if (lines.length === 0) return "";
    return ` From the file: ${lines.slice(0, shown).join("; ")}${lines.length > shown ? `; and ${lines.length - shown} more` : ""}.`;
}

/** Imports and saves the file's versions; says what was saved and left out, or why nothing was. */
export async function importOpenAiPromptFile(file: PromptFile): Promise<{ok: true, itemId: string, text: string} | {ok: false, text: string}> {
    let imported;
    try {
        imported = await importOpenAiPrompt(file.name, singleFile(file), {createdAt: Date.now()});
    } catch (error) {
        if (error instanceof ImportError) return {ok: false, text: `${[...error.report?.lines() ?? [], error.message].join("; ")}. Nothing was saved.`};
        throw error;
    }
    const {itemId, itemName, promptId} = imported;
    const existing = useVersionsStore.getState().items.find((item) => item.itemId === itemId);
    if (existing !== undefined)
        return {ok: false, text: `${file.name}: "${existing.itemName}" (OpenAI prompt ${promptId}) is saved already, with ${existing.latest} versions: delete it on the Versions screen to import the file again. Nothing was saved.`};
    const versions = savedVersions(imported);
    const saved = await restoreItem({item: {itemId, itemName, kind: "responses", latest: versions.length, updatedAt: Date.now()}, versions});
    if (!saved.ok) return {ok: false, text: `${file.name}: nothing was saved (${saved.text})`};
    const count = `${versions.length} version${versions.length === 1 ? "" : "s"}`;
    return {ok: true, itemId, text: `Saved "${itemName}" (OpenAI prompt ${promptId}) with its ${count} from ${file.name}.${reportSentence(imported.report.lines())}`};
}
