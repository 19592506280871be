import {useDeferredValue, useMemo, useRef} from "react";
import {JsonEditor} from "../../components/JsonEditor.tsx";
import {questionSetTextError} from "../builder/questionSetTextError.ts";
import {formatQuestionSetFile} from "../model/formatQuestionSetFile.ts";
import {useCompareStore} from "../state/useCompareStore.ts";
import {useQuestionSetStore} from "../state/useQuestionSetStore.ts";

/** Variant B of the question set, as JSON: a copy of the builder's set to change, or a file. */
export function VariantEditor() {
    const text = useCompareStore((state) => state.variantText);
    const set = useCompareStore((state) => state.set);
    const input = useRef<HTMLInputElement>(null);
    const deferred = useDeferredValue(text);
    const error = useMemo(() => deferred.trim() === "" ? null : questionSetTextError(deferred, null), [deferred]);
    return (
        <section className="card variant-editor" data-testid="variant-editor">
            <div className="card-title-row">
                <h3>Variant B</h3>
                <div className="push-right row-gap">
                    <button type="button" className="btn btn-sm" data-testid="variant-copy"
                        onClick={() => set({variantText: formatQuestionSetFile(useQuestionSetStore.getState().draft)})}>Copy current set</button>
                    <button type="button" className="btn btn-sm" onClick={() => input.current?.click()}>Open…</button>
                    <input ref={input} type="file" accept="application/json,.json" hidden data-testid="variant-open-input" onChange={async (event) => {
                        const file = event.target.files?.[0];
                        event.target.value = "";
                        if (file) set({variantText: await file.text()});
                    }} />
                </div>
            </div>
            <JsonEditor path="inmemory://svc/question-set-b.json" value={text} onChange={(value) => set({variantText: value})} error={error} height={260}
                label="Variant B JSON" testId="variant-json" />
        </section>
    );
}
