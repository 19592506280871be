export type DownloadErrorCode =
    | "bad_url" | "http_error" | "not_gguf" | "checksum_mismatch" | "disk_full" | "cancelled" | "network" | "file_error";

/** A download that failed; `message` is one line a person can act on. */
export class DownloadError extends Error {
    public readonly code: DownloadErrorCode;
    /** The HTTP status of an `http_error`. */
    public readonly status?: number;

    public constructor(code: DownloadErrorCode, message: string, options: {status?: number, cause?: unknown} = {}) {
        super(message, {cause: options.cause});
        this.name = "DownloadError";
        this.code = code;
        this.status = options.status;
    }
}
