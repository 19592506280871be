// Attached images: read from the file picker as data URLs, the attach button and the thumbnails.
import {useRef} from "react";
import {newId} from "./browser.ts";
import {Icon} from "./controls.tsx";

/** An attached image as the page holds it: an inline data URL (spec 2.1 accepts no other). */
export type DraftImage = {id: string, name: string, dataUrl: string};

/** Picked image files as data URLs (spec 2.1: only inline `data:<type>;base64,...` URLs are accepted). */
export function readImageFiles(files: FileList | File[]): Promise<DraftImage[]> {
    return Promise.all([...files].map((file) => new Promise<DraftImage>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve({id: newId(), name: file.name, dataUrl: String(reader.result)});
        reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}`));
        reader.readAsDataURL(file);
    })));
}

type ImageAttachButtonProps = {onImages: (images: DraftImage[]) => void, testId: string, label?: string};

/** A button that opens the file picker for images and hands them over as data URLs. */
export function ImageAttachButton({onImages, testId, label = "Attach image"}: ImageAttachButtonProps) {
    const input = useRef<HTMLInputElement>(null);
    return (
        <>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => input.current?.click()}>
                <Icon name="image" /> {label}
            </button>
            <input ref={input} type="file" accept="image/*" multiple hidden data-testid={testId}
                onChange={async (event) => {
                    const files = event.target.files;
                    if (files && files.length > 0) onImages(await readImageFiles(files));
                    event.target.value = "";
                }} />
        </>
    );
}

type ImagePreviewsProps = {images: DraftImage[], onRemove: (id: string) => void};

/** Thumbnails of attached images, each with a remove button. */
export function ImagePreviews({images, onRemove}: ImagePreviewsProps) {
    if (images.length === 0) return null;
    return (
        <div className="image-previews">
            {images.map((image) => (
                <figure className="image-preview" key={image.id} data-testid="image-preview">
                    <img src={image.dataUrl} alt={image.name} />
                    <figcaption title={image.name}>{image.name}</figcaption>
                    <button type="button" className="image-remove" aria-label={`Remove ${image.name}`} onClick={() => onRemove(image.id)}>×</button>
                </figure>
            ))}
        </div>
    );
}
