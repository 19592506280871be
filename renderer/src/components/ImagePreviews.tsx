import type {DraftImage} from "../chat/types.ts";

type Props = {images: DraftImage[], onRemove: (id: string) => void};

/** Thumbnails of attached images, each with a remove button. */
export function ImagePreviews({images, onRemove}: Props) {
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
