import {useState} from "react";
import {limits} from "../../../../protocol/limits.ts";
import {ImageAttachButton} from "../../components/ImageAttachButton.tsx";
import {imageName} from "../model/buildDecisionRequest.ts";
import {useDecisionInputStore} from "../state/useDecisionInputStore.ts";

/** Up to 8 images sent with the input, previewed under the names the questions refer to: image_1, image_2... */
export function DecisionImages() {
    const images = useDecisionInputStore((state) => state.images);
    const set = useDecisionInputStore((state) => state.set);
    const [note, setNote] = useState<string | null>(null);
    const full = images.length >= limits.imagesPerRequest;
    return (
        <div className="decision-images">
            <div className="row-gap">
                {full
                    ? <span className="muted small">{limits.imagesPerRequest} images: the most a request may carry.</span>
                    : <ImageAttachButton testId="input-images" label={`Add images (${images.length} / ${limits.imagesPerRequest})`} onImages={(picked) => {
                        const room = limits.imagesPerRequest - useDecisionInputStore.getState().images.length;
                        set({images: [...useDecisionInputStore.getState().images, ...picked.slice(0, room)]});
                        setNote(picked.length > room ? `Only ${room} more image${room === 1 ? "" : "s"} fit: a request carries at most ${limits.imagesPerRequest}.` : null);
                    }} />}
                {note && <span className="field-warning inline" role="status">{note}</span>}
            </div>
            {images.length > 0 && (
                <div className="image-previews">
                    {images.map((image, index) => (
                        <figure className="image-preview" key={image.id} data-testid="input-image-preview">
                            <img src={image.dataUrl} alt={`${imageName(index)}: ${image.name}`} />
                            <figcaption title={image.name}><span className="mono">{imageName(index)}</span> · {image.name}</figcaption>
                            <button type="button" className="image-remove" aria-label={`Remove ${imageName(index)}`}
                                onClick={() => set({images: images.filter((item) => item.id !== image.id)})}>×</button>
                        </figure>
                    ))}
                </div>
            )}
        </div>
    );
}
