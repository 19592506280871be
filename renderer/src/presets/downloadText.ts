/** Saves text as a file through the browser's download (Electron shows its save dialog). */
export function downloadText(fileName: string, text: string, type = "application/json") {
    const url = URL.createObjectURL(new Blob([text], {type}));
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
}
