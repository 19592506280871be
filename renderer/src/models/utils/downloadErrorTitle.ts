/**
 * A short headline for a failed download's error code (ModelDownloads / DownloadError codes); the gateway's
 * message below it says what exactly went wrong and what to do.
 */
export function downloadErrorTitle(code: string): string {
    switch (code) {
        case "bad_url": return "Not a model link";
        case "invalid_model_source": return "Not a model link";
        case "http_error": return "The server refused the download";
        case "not_gguf": return "Not a GGUF model file";
        case "checksum_mismatch": return "Checksum does not match";
        case "disk_full": return "The disk is full";
        case "network": return "Network problem";
        case "file_error": return "Could not save the file";
        case "download_in_progress": return "Already downloading";
        case "cancelled": return "Cancelled";
        default: return "Download failed";
    }
}
