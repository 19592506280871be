import assert from "node:assert/strict";
import {PassThrough} from "node:stream";
import {test} from "node:test";
import type {DownloadProgress} from "../download/downloadModel.ts";
import {formatProgressLine, ProgressPrinter} from "./progress.ts";

const mib = 1024 * 1024;
const at = (receivedBytes: number, totalBytes?: number): DownloadProgress =>
    ({receivedBytes, totalBytes, bytesPerSecond: 2 * mib, etaSeconds: totalBytes != null ? (totalBytes - receivedBytes) / (2 * mib) : undefined, attempt: 1, resumedFrom: 0});

/** A terminal or a pipe: a real stream whose written text is kept, with the TTY flags a terminal has. */
function terminal(isTTY: boolean) {
    const stream = Object.assign(new PassThrough(), {isTTY, columns: 100});
    let text = "";
    stream.on("data", (chunk: Buffer) => text += chunk.toString());
    return {stream, text: () => text};
}

test("the progress line: bar, percent, bytes, speed and ETA; without a size only bytes and speed", () => {
    assert.equal(formatProgressLine(at(150 * mib, 600 * mib), 8), "[##......]  25%  150 MiB / 600 MiB  2.00 MiB/s  ETA 3 min 45 s");
    assert.equal(formatProgressLine(at(3 * mib)), "3.00 MiB  2.00 MiB/s");
});

test("on a TTY the line is redrawn in place with \\r; in a pipe whole lines are printed at most every 10%", async () => {
    const tty = terminal(true);
    const printer = new ProgressPrinter(tty.stream);
    for (let received = 0; received <= 100 * mib; received += 5 * mib) printer.update(at(received, 100 * mib));
    printer.done();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(tty.text().split("\r").length - 1, 21, "one redraw per update");
    assert.equal(tty.text().split("\n").length - 1, 1, "a single newline, at the end");
    assert.match(tty.text(), /\[#{24}\] 100% .*\n$/);

    const pipe = terminal(false);
    const plain = new ProgressPrinter(pipe.stream);
    for (let received = 0; received <= 100 * mib; received += 5 * mib) plain.update(at(received, 100 * mib));
    plain.done();
    await new Promise((resolve) => setImmediate(resolve));
    assert.doesNotMatch(pipe.text(), /\r/);
    const lines = pipe.text().trim().split("\n");
    assert.equal(lines.length, 11, "0%, 10% ... 100%");
    assert.match(lines.at(-1)!, /100%/);
});
