// Test-only: stands in for the OS secret store (safeStorage), the one part tests cannot use for real.
import type {EncryptionBackend} from "../../../electron/secrets/KeyVault.ts";

/** XOR with a fixed pad: reversible and clearly not the plaintext, which is all the vault relies on. */
export function xorEncryptionBackend(name = "test_keyring", available = true): EncryptionBackend & {calls: number} {
    const pad = Buffer.from("svc-studio-test-pad");
    const xor = (data: Buffer) => Buffer.from(data.map((byte, index) => byte ^ pad[index % pad.length]));
    return {
        calls: 0,
        isAvailable: () => available,
        backendName: () => name,
        encrypt(text) {
            this.calls++;
            return xor(Buffer.from(text, "utf8"));
        },
        decrypt(data) {
            this.calls++;
            return xor(data).toString("utf8");
        }
    };
}
