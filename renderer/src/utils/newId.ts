/** A short unique id for list keys and stored records. */
export function newId(): string {
    return globalThis.crypto.randomUUID();
}
