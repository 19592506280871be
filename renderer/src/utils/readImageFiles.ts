import type {DraftImage} from "../chat/types.ts";
import {newId} from "./newId.ts";

/** Picked image files as data URLs (spec 2.1: only inline `data:<type>;base64,...` URLs are accepted). */
export function readImageFiles(files: FileList | File[]): Promise<DraftImage[]> {
    return Promise.all([...files].map((file) => new Promise<DraftImage>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve({id: newId(), name: file.name, dataUrl: String(reader.result)});
        reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}`));
        reader.readAsDataURL(file);
    })));
}
