import {useDeferredValue, useMemo} from "react";
import {JsonEditor} from "../../components/JsonEditor.tsx";
import {useQuestionSetStore} from "../state/useQuestionSetStore.ts";
import {questionSetTextError} from "./questionSetTextError.ts";

/**
 * The set as its JSON file, beside the builder and editable both ways: a builder edit rewrites the text, an
 * edit here updates the builder as soon as the text can be read (the text is then kept exactly as typed).
 */
export function QuestionSetJsonPanel() {
    const jsonText = useQuestionSetStore((state) => state.jsonText);
    const jsonError = useQuestionSetStore((state) => state.jsonError);
    const format = useQuestionSetStore((state) => state.draft.format);
    const setJsonText = useQuestionSetStore((state) => state.setJsonText);
    const deferredText = useDeferredValue(jsonText);
    const error = useMemo(() => questionSetTextError(deferredText, jsonError), [deferredText, jsonError]);
    return (
        <aside className="qs-json-panel" data-testid="qs-json-panel">
            <div className="side-title">
                Question set JSON <span className="mono muted small">{format === "decisions" ? "/v1/decisions" : "/v1/systemone"}</span>
            </div>
            <div className="qs-json-body">
                <JsonEditor path="inmemory://svc/question-set.json" value={jsonText} onChange={setJsonText} error={error} height={620}
                    label="Question set JSON" testId="qs-json" />
                <p className="muted small">Saved files use this text: a fixed key order and 2-space indent, so they diff cleanly.</p>
            </div>
        </aside>
    );
}
