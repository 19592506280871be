export type KeyVaultErrorCode = "encryption_unavailable" | "plaintext_refused" | "decrypt_failed";

/** Why a key could not be stored or read; the gateway turns each code into a clear 409/500 for the renderer. */
export class KeyVaultError extends Error {
    public readonly code: KeyVaultErrorCode;

    public constructor(code: KeyVaultErrorCode, message: string) {
        super(message);
        this.name = "KeyVaultError";
        this.code = code;
    }
}
