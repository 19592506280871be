import {chmod, readFile} from "node:fs/promises";
import {writeFileAtomic} from "../../base/node/writeFileAtomic.ts";

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

/**
 * The OS secret primitive the vault encrypts with: Electron's safeStorage in the app (Keychain, DPAPI,
 * libsecret/kwallet), a double in tests. `backendName()` is safeStorage's Linux backend name where it has one
 * (`basic_text` means no keyring: a fixed, well-known password, i.e. no real protection). As Electron's does, a
 * `basic_text` backend is unavailable (`isAvailable()` false, encrypt and decrypt throw) until
 * `usePlainTextEncryption(true)` has been called in this process.
 */
export interface EncryptionBackend {
    isAvailable(): boolean,
    backendName(): string,
    usePlainTextEncryption(use: boolean): void,
    encrypt(text: string): Buffer,
    decrypt(data: Buffer): string
}

export type KeyVaultOptions = {
    filePath: string,
    backend: EncryptionBackend,
    /** The user accepted that, without a keyring (`basic_text`), keys are only obfuscated on disk. */
    allowPlaintextFallback?: boolean
};

/** The file: each key encrypted by the backend, base64; written with mode 0600. */
type StoredKeys = {
    version: 1,
    /** Backend that encrypted the keys: a later mismatch explains a decrypt failure. */
    backend: string,
    plaintextFallbackAccepted?: boolean,
    keys: Record<string, string>
};

/** Linux safeStorage's name for "no keyring found": encryption with a hard-coded password. */
const plaintextBackend = "basic_text";

/**
 * Remote API keys at rest, encrypted with the OS secret store through an EncryptionBackend, in a 0600 file apart
 * from the connection profiles. Refuses to store keys when the backend is unavailable, or is Linux `basic_text`
 * unless the user accepted that (`allowPlaintextFallback`, or `acceptPlaintextFallback()`, which is remembered).
 */
export class KeyVault implements KeyStore {
    public readonly persistent = true;
    private readonly filePath: string;
    private readonly backend: EncryptionBackend;
    private stored: StoredKeys;
    private plaintextAllowed: boolean;

    private constructor(options: KeyVaultOptions, stored: StoredKeys) {
        this.filePath = options.filePath;
        this.backend = options.backend;
        this.stored = stored;
        this.plaintextAllowed = options.allowPlaintextFallback === true || stored.plaintextFallbackAccepted === true;
        // Consent given at an earlier launch holds: keys saved then must decrypt now, and new ones be saved.
        if (this.plaintextAllowed) this.enablePlaintextBackend();
    }

    public static async open(options: KeyVaultOptions): Promise<KeyVault> {
        const text = await readFile(options.filePath, "utf8").catch((error: NodeJS.ErrnoException) => {
            if (error.code === "ENOENT") return undefined;
            throw error;
        });
        const stored = text == null ? undefined : parseStored(text);
        if (text != null && stored == null) throw new KeyVaultError("decrypt_failed", `the key file ${options.filePath} is not readable`);
        // Tighten a file whose mode was loosened by hand or by an older version.
        if (text != null) await chmod(options.filePath, 0o600);
        return new KeyVault(options, stored ?? {version: 1, backend: safeBackendName(options.backend), keys: {}});
    }

    /** Whether keys may be stored now, and if not, why: for a warning in the UI before the user types a key. */
    public storageProblem(): KeyVaultError | undefined {
        // Asked before availability: without consent a `basic_text` backend reports itself unavailable.
        if (safeBackendName(this.backend) === plaintextBackend && !this.plaintextAllowed)
            return new KeyVaultError("plaintext_refused", "no keyring (such as GNOME Keyring or KWallet) was found: an API key saved now " +
                "would only be obfuscated on disk, readable by any program running as you. Accept this to save keys anyway.");
        if (!this.backend.isAvailable())
            return new KeyVaultError("encryption_unavailable", "the operating system's secret storage is not available, so API keys cannot be saved");
        return undefined;
    }

    public plaintextFallbackAllowed(): boolean {
        return this.plaintextAllowed;
    }

    public async acceptPlaintextFallback(): Promise<void> {
        this.plaintextAllowed = true;
        this.enablePlaintextBackend();
        this.stored = {...this.stored, plaintextFallbackAccepted: true};
        await this.save();
    }

    public has(id: string): boolean {
        return Object.hasOwn(this.stored.keys, id);
    }

    public get(id: string): string | undefined {
        if (!this.has(id)) return undefined;
        try {
            return this.backend.decrypt(Buffer.from(this.stored.keys[id], "base64"));
        } catch (error) {
            throw new KeyVaultError("decrypt_failed", `the saved API key could not be decrypted (stored with ${this.stored.backend}, ` +
                `now ${safeBackendName(this.backend)}): ${(error as Error).message}; enter the key again`);
        }
    }

    public async set(id: string, key: string): Promise<void> {
        const problem = this.storageProblem();
        if (problem != null) throw problem;
        const encrypted = this.backend.encrypt(key).toString("base64");
        this.stored = {...this.stored, backend: this.backend.backendName(), keys: {...this.stored.keys, [id]: encrypted}};
        await this.save();
    }

    public async delete(id: string): Promise<void> {
        if (!this.has(id)) return;
        const {[id]: _removed, ...keys} = this.stored.keys;
        this.stored = {...this.stored, keys};
        await this.save();
    }

    /** Turns on `basic_text` encryption, which safeStorage keeps off until asked (a no-op with a real keyring). */
    private enablePlaintextBackend() {
        if (safeBackendName(this.backend) === plaintextBackend) this.backend.usePlainTextEncryption(true);
    }

    private async save() {
        await writeFileAtomic(this.filePath, JSON.stringify(this.stored, null, 4) + "\n", 0o600);
    }
}

function safeBackendName(backend: EncryptionBackend): string {
    try {
        return backend.backendName();
    } catch {
        return "unknown";
    }
}

function parseStored(text: string): StoredKeys | undefined {
    try {
        const value = JSON.parse(text) as Partial<StoredKeys>;
        if (value?.version !== 1 || value.keys == null || typeof value.keys !== "object" || Array.isArray(value.keys)) return undefined;
        const keys = Object.fromEntries(Object.entries(value.keys).filter(([, encrypted]) => typeof encrypted === "string"));
        return {version: 1, backend: String(value.backend ?? "unknown"), plaintextFallbackAccepted: value.plaintextFallbackAccepted === true, keys};
    } catch {
        return undefined;
    }
}

/**
 * Browser mode's key store: keys live in the gateway process only (from `SVC_REMOTE_API_KEY` or added over the
 * API) and are gone at exit; nothing is written to disk, so no encryption is involved.
 */
export class MemoryKeyVault implements KeyStore {
    public readonly persistent = false;
    private readonly keys = new Map<string, string>();

    public has(id: string): boolean {
        return this.keys.has(id);
    }

    public get(id: string): string | undefined {
        return this.keys.get(id);
    }

    public async set(id: string, key: string): Promise<void> {
        this.keys.set(id, key);
    }

    public async delete(id: string): Promise<void> {
        this.keys.delete(id);
    }
}
