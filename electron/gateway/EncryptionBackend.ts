/**
 * The OS secret primitive the vault encrypts with: Electron's safeStorage in the app (Keychain, DPAPI,
 * libsecret/kwallet), a double in tests. `backendName()` is safeStorage's Linux backend name where it has one
 * (`basic_text` means no keyring: a fixed, well-known password, i.e. no real protection).
 */
export interface EncryptionBackend {
    isAvailable(): boolean,
    backendName(): string,
    encrypt(text: string): Buffer,
    decrypt(data: Buffer): string
}
