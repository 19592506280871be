/** Keeps the last `maxLines` lines written to it: the stderr of a child, quoted when it dies. */
export class TextTail {
    private readonly maxLines: number;
    private lines: string[] = [];

    public constructor(maxLines: number) {
        this.maxLines = maxLines;
    }

    public push(line: string) {
        if (line.trim() === "") return;
        this.lines.push(line.length > 500 ? line.slice(0, 500) + "..." : line);
        if (this.lines.length > this.maxLines) this.lines.shift();
    }

    public clear() {
        this.lines = [];
    }

    public text(): string {
        return this.lines.join("\n");
    }
}
