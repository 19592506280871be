import {safeStorage} from "electron";
import type {EncryptionBackend} from "./KeyVault.ts";

/**
 * The vault's encryption through Electron's safeStorage: Keychain on macOS, DPAPI on Windows, libsecret or KWallet
 * on Linux (where `basic_text` means none was found). Only usable after `app` is ready.
 */
export function safeStorageBackend(): EncryptionBackend {
    return {
        isAvailable: () => safeStorage.isEncryptionAvailable(),
        backendName: () => process.platform === "linux" ? safeStorage.getSelectedStorageBackend()
            : process.platform === "darwin" ? "keychain" : "dpapi",
        encrypt: (text) => safeStorage.encryptString(text),
        decrypt: (data) => safeStorage.decryptString(data)
    };
}
