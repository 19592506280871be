import {useRef} from "react";
import type {DraftImage} from "../chat/types.ts";
import {readImageFiles} from "../utils/readImageFiles.ts";
import {Icon} from "./Icon.tsx";

type Props = {onImages: (images: DraftImage[]) => void, testId: string, label?: string};

/** A button that opens the file picker for images and hands them over as data URLs. */
export function ImageAttachButton({onImages, testId, label = "Attach image"}: Props) {
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
