// Two versions side by side, line by line: removed lines marked "−" on the left, added ones "+" on the right (a mark and
// a word for screen readers, not colour alone), unchanged lines plain.
import {useMemo} from "react";
import type {PromptVersion} from "../../../../client/experiments/types.ts";
import {diffCounts, diffLines, versionText, type DiffRow, type DiffSide} from "./versionDiff.ts";

export function DiffView({before, after}: {before: PromptVersion, after: PromptVersion}) {
    const rows = useMemo(() => diffLines(versionText(before), versionText(after)), [before, after]);
    const {removed, added} = diffCounts(rows);
    return (
        <div className="version-diff" data-testid="version-diff">
            <div className="muted small" data-testid="diff-summary">
                {removed === 0 && added === 0 ? "The two versions send the same request and have the same note."
                    : `${removed} line${removed === 1 ? "" : "s"} removed, ${added} added, from version ${before.version} to version ${after.version}.`}
            </div>
            {/* Focusable, so the keyboard scrolls it too. */}
            <div className="diff-scroll" tabIndex={0} role="region" aria-label={`Version ${before.version} beside version ${after.version}`}>
                <table className="diff-table">
                    <caption className="sr-only">Lines of version {before.version} beside those of version {after.version}</caption>
                    <colgroup>
                        <col className="diff-num-col" /><col className="diff-mark-col" /><col />
                        <col className="diff-num-col" /><col className="diff-mark-col" /><col />
                    </colgroup>
                    <thead>
                        <tr>
                            <th scope="col" colSpan={3}>Version {before.version}</th>
                            <th scope="col" colSpan={3}>Version {after.version}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {rows.map((row, index) => <DiffRowView key={index} row={row} />)}
                    </tbody>
                </table>
            </div>
        </div>
    );
}

function DiffRowView({row}: {row: DiffRow}) {
    const left = row.kind === "added" ? null : row.left;
    const right = row.kind === "removed" ? null : row.right;
    const changed = row.kind !== "same";
    return (
        <tr className={`diff-row diff-${row.kind}`} data-testid="diff-row" data-kind={row.kind}>
            <Side side={left} mark={changed && left ? "removed" : null} />
            <Side side={right} mark={changed && right ? "added" : null} />
        </tr>
    );
}

function Side({side, mark}: {side: DiffSide | null, mark: "removed" | "added" | null}) {
    if (side === null) return <><td className="diff-num" /><td className="diff-mark" /><td className="diff-text diff-empty" /></>;
    return (
        <>
            <td className="diff-num mono muted">{side.number}</td>
            <td className={`diff-mark mono${mark ? ` diff-${mark}-mark` : ""}`}>
                {mark && <><span aria-hidden="true">{mark === "removed" ? "−" : "+"}</span><span className="sr-only">{mark}</span></>}
            </td>
            <td className={`diff-text mono${mark ? ` diff-${mark}-text` : ""}`} data-testid={mark ? `diff-${mark}` : undefined}>{side.text || " "}</td>
        </>
    );
}
