// What an experiment's repeats measured: per chat variant, pass@k and pass^k at k = the repeats, how many rows passed
// how many times, and the noise split (prediction noise within rows, data noise between them, and how much the
// repeats narrowed the interval), each column's definition on hover. Written by client/experiments/repeatStatsText,
// as in the HTML report and the CLI.
import {repeatColumns, repeatNote, repeatRows} from "../../../../client/experiments/repeatStatsText.ts";
import type {ExperimentSummary} from "../../../../client/experiments/types.ts";
import {DefinitionTable} from "./DefinitionTable.tsx";

export function RepeatsCard({summary}: {summary: ExperimentSummary}) {
    if (summary.repeats === undefined) return null;
    const rows = repeatRows(summary);
    return (
        <section className="card exp-repeats" data-testid="exp-repeats">
            <div className="card-title-row"><h3>Repeats</h3></div>
            <div className="muted small">{repeatNote(summary)}</div>
            {rows.length === 0 ? <div className="muted small">No row has two answers yet.</div> : <DefinitionTable columns={repeatColumns} rows={rows} rowTestId="exp-repeat-row" label="Repeats: pass@k, pass^k and the noise split" />}
        </section>
    );
}
