/**
 * Runs tasks one after another per key, each once the one before it settled (whatever its outcome). Two writes of one
 * file must not overlap: writeFileAtomic's temporary name is the pid and the millisecond, and a listing or trim must
 * not see a file half way through being replaced by its own store.
 */
export class SerialQueue {
    private readonly tails = new Map<string, Promise<unknown>>();

    public run<T>(key: string, task: () => Promise<T>): Promise<T> {
        const previous = this.tails.get(key) ?? Promise.resolve();
        const next = previous.then(task, task);
        const tail = next.catch(() => undefined);
        this.tails.set(key, tail);
        // The map forgets a key once its last task is done, so it does not grow with every id ever written.
        void tail.then(() => {
            if (this.tails.get(key) === tail) this.tails.delete(key);
        });
        return next;
    }
}
