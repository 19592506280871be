import {safeStorage} from "electron";
import type {EncryptionBackend} from "./KeyVault.ts";

/**
 * The vault's encryption through Electron's safeStorage: Keychain on macOS, DPAPI on Windows, libsecret or KWallet
 * on Linux (where `basic_text` means none was found: safeStorage then reports encryption unavailable until
 * `setUsePlainTextEncryption(true)`, which the vault calls once the user has consented). Only usable after `app` is
 * ready.
 */
export function safeStorageBackend(): EncryptionBackend {
    return {
        isAvailable: () => safeStorage.isEncryptionAvailable(),
        backendName: () => {
            if (process.platform !== "linux") return process.platform === "darwin" ? "keychain" : "dpapi";
            // Asking for availability first makes Chromium choose its backend, so the name is not yet "unknown".
            safeStorage.isEncryptionAvailable();
            return safeStorage.getSelectedStorageBackend();
        },
        usePlainTextEncryption: (use) => {
            if (process.platform === "linux") safeStorage.setUsePlainTextEncryption(use);
        },
        encrypt: (text) => safeStorage.encryptString(text),
        decrypt: (data) => safeStorage.decryptString(data)
    };
}
