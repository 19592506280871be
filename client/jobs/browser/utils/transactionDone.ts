/**
 * Resolves when the transaction has committed (for a `strict` one: flushed to disk), rejects when it aborts,
 * a quota error included. Call it right after creating the transaction, before its requests can settle.
 */
export function transactionDone(transaction: IDBTransaction): Promise<void> {
    const done = new Promise<void>((resolve, reject) => {
        transaction.oncomplete = () => resolve();
        transaction.onabort = () => reject(transaction.error ?? new DOMException("The IndexedDB transaction was aborted.", "AbortError"));
        // A failed request aborts the transaction unless handled: the abort event carries the error.
    });
    // Callers that throw before awaiting it must not leave an unhandled rejection behind.
    done.catch(() => undefined);
    return done;
}
