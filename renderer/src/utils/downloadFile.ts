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
