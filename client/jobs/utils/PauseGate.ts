/** Workers await `passed()` before taking a row: it resolves at once when open, on `open()` when closed. */
export class PauseGate {
    private waiting: Promise<void> | null = null;
    private release: (() => void) | null = null;

    public get isOpen(): boolean {
        return this.waiting === null;
    }

    public close() {
        if (this.waiting !== null) return;
        this.waiting = new Promise((resolve) => this.release = resolve);
    }

    public open() {
        this.release?.();
        this.waiting = null;
        this.release = null;
    }

    public passed(): Promise<void> {
        return this.waiting ?? Promise.resolve();
    }
}
