// The Versions screen's "Import an OpenAI prompt…": a prompt object file picked and saved with its versions.
import {useRef} from "react";
import type {ActionMessageValue} from "../../ui/ActionMessage.tsx";
import {importOpenAiPromptFile} from "./openAiPromptImport.ts";

export function ImportOpenAiPrompt({onResult}: {onResult: (message: ActionMessageValue, itemId: string | null) => void}) {
    const input = useRef<HTMLInputElement>(null);
    return (
        <>
            <button type="button" className="btn btn-sm push-right" data-testid="versions-import-openai" onClick={() => input.current?.click()}
                title="An OpenAI prompt object (pmpt_…) as the API returns it: one version, a list of versions, or the API's list. Saved here as a Responses prompt with a version per OpenAI version">
                Import an OpenAI prompt…
            </button>
            <input ref={input} type="file" hidden accept="application/json,.json" data-testid="versions-import-openai-input" onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file !== undefined) void importOpenAiPromptFile(file).then((result) => onResult({ok: result.ok, text: result.text}, result.ok ? result.itemId : null));
            }} />
        </>
    );
}
