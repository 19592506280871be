import {useResponsesStore} from "../state/useResponsesStore.ts";
import {AutoTextarea} from "./AutoTextarea.tsx";
import {Icon} from "./Icon.tsx";
import {ImageAttachButton} from "./ImageAttachButton.tsx";

/** The user input of a Responses request: `input_text` and `input_image` parts, in order. */
export function ResponsesInputParts() {
    const parts = useResponsesStore((state) => state.draft.parts);
    const {setPartText, removePart, addTextPart, addImageParts} = useResponsesStore.getState();
    return (
        <div className="card">
            <div className="card-label">Input (user message parts)</div>
            <div className="parts">
                {parts.map((part) => (
                    <div className="part" key={part.id} data-testid="responses-part">
                        <span className="badge mono">{part.type}</span>
                        {part.type === "input_text"
                            ? <AutoTextarea value={part.text} placeholder="Text" aria-label="input_text" data-testid="responses-text"
                                onChange={(event) => setPartText(part.id, event.target.value)} />
                            : <figure className="image-preview inline" data-testid="image-preview"><img src={part.dataUrl} alt={part.name} /><figcaption>{part.name} · detail: auto</figcaption></figure>}
                        <button type="button" className="icon-btn danger" aria-label="Remove part" onClick={() => removePart(part.id)}><Icon name="close" /></button>
                    </div>
                ))}
            </div>
            <div className="message-foot">
                <button type="button" className="btn btn-ghost btn-sm" onClick={addTextPart}><Icon name="plus" /> Text part</button>
                <ImageAttachButton testId="responses-image-input" label="Image part" onImages={addImageParts} />
            </div>
        </div>
    );
}
