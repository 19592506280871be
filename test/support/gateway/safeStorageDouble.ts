// Test-only: stands in for Electron's safeStorage (the OS secret store), the one part tests cannot use for real.
import type {EncryptionBackend} from "../../../electron/secrets/KeyVault.ts";

/**
 * Follows Electron's rule on Linux: with the `basic_text` backend (no keyring found), `isEncryptionAvailable()` is
 * false, and encrypting or decrypting throws, until `setUsePlainTextEncryption(true)` is called in this process;
 * other backends are available when `keyringAvailable`. Encrypts by XOR with a fixed pad: reversible and clearly not
 * the plaintext, which is all the vault relies on.
 */
export function safeStorageDouble(backend = "test_keyring", keyringAvailable = true): EncryptionBackend & {calls: number} {
    const pad = Buffer.from("svc-studio-test-pad");
    const xor = (data: Buffer) => Buffer.from(data.map((byte, index) => byte ^ pad[index % pad.length]));
    let plainTextEncryption = false;
    const isAvailable = () => backend === "basic_text" ? plainTextEncryption : keyringAvailable;
    const check = (call: string) => {
        if (!isAvailable()) throw new Error(`Error while ${call} the text provided to safeStorage. Encryption is not available.`);
    };
    return {
        calls: 0,
        isAvailable,
        backendName: () => backend,
        usePlainTextEncryption(use) {
            plainTextEncryption = use;
        },
        encrypt(text) {
            check("encrypting");
            this.calls++;
            return xor(Buffer.from(text, "utf8"));
        },
        decrypt(data) {
            check("decrypting");
            this.calls++;
            return xor(data).toString("utf8");
        }
    };
}
