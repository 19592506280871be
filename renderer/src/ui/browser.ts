// Small browser helpers: unique ids and saving a file through the browser's download.
/** A short unique id for list keys and stored records. */
export function newId(): string {
    return globalThis.crypto.randomUUID();
}

/** Saves bytes or text as a file through the browser's download (Electron shows its save dialog). */
export function downloadFile(fileName: string, bytes: Uint8Array | string, type = "application/json") {
    const url = URL.createObjectURL(new Blob([bytes as BlobPart], {type}));
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
}
