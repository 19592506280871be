/** Where remote API keys live, by connection id: the encrypted KeyVault (app) or MemoryKeyVault (browser mode). */
export interface KeyStore {
    /** False when keys are lost at exit (browser mode). */
    readonly persistent: boolean,
    has(id: string): boolean,
    /** The key, or undefined when none is stored. Throws KeyVaultError when it cannot be decrypted. */
    get(id: string): string | undefined,
    /** Throws KeyVaultError (`plaintext_refused`, `encryption_unavailable`) when the key may not be stored. */
    set(id: string, key: string): Promise<void>,
    delete(id: string): Promise<void>,
    /** Records the user's consent to store keys without a real keyring (Linux `basic_text`). */
    acceptPlaintextFallback?(): Promise<void>
}
