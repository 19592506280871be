// What the run set up can detect, beside its estimate: the smallest difference in the primary metric (accuracy or the
// pass rate) it finds 80% of the time at α = 0.05, given its rows and the discordance (the share of rows only one
// variant gets right), measured by the last finished experiment on the dataset, else assumed (and editable); and the
// rows a difference the person types would need. Connor's closed form for McNemar's test (client/experiments/power.ts).
import {useState} from "react";
import {assumedDiscordance, comparesVariants, defaultPower, mcnemarDetectable, mcnemarRowsNeeded} from "../../../../client/experiments/power.ts";
import {formatCount, formatMetric} from "../../../../client/experiments/metricDefinitions.ts";
import type {ExperimentSpec} from "../../../../client/experiments/types.ts";
import {useDiscordanceStore} from "./discordance.ts";

export const powerDefinition = "Power: the chance that a real difference of a given size gives a clear verdict. Computed with Connor's (1987) " +
    "closed form for McNemar's test on paired pass/fail rows: n = (1.96·√ψ + 0.84·√(ψ − δ²))² / δ², where ψ, the discordance, is the share of " +
    "rows only one of the two variants gets right, and δ the difference. It assumes independent rows and one comparison at α = 0.05, two-sided " +
    "(several comparisons under Holm's correction need somewhat more rows); McNemar's exact test, which the verdicts use, is slightly " +
    "conservative, so its power at these figures is a few points below 80%.";

export function PowerEstimate({spec, rows}: {spec: ExperimentSpec, rows: number}) {
    const datasetId = "id" in spec.dataset ? spec.dataset.id : null;
    const measured = useDiscordanceStore((state) => datasetId === null ? undefined : state.byDataset[datasetId]);
    const [assumed, setAssumed] = useState(assumedDiscordance);
    const [wanted, setWanted] = useState("0.05");
    if (!comparesVariants(spec) || rows === 0) return null;
    const discordance = measured?.discordance ?? assumed;
    const detectable = mcnemarDetectable(rows, discordance);
    const delta = Number(wanted);
    const needed = Number.isFinite(delta) && delta > 0 ? mcnemarRowsNeeded(delta, discordance) : null;
    const percent = `${Math.round(defaultPower * 100)}%`;
    return (
        <div className="exp-power" data-testid="exp-power" title={powerDefinition}>
            <span data-testid="exp-power-detectable">
                {detectable === null
                    ? `On ${formatCount(rows)} rows no difference in the primary metric has an ${percent} chance of a clear verdict at this discordance.`
                    : `On ${formatCount(rows)} rows, a difference of ${formatMetric(detectable)} in the primary metric has an ${percent} chance of a clear verdict (α = 0.05).`}
            </span>
            {spec.cluster !== undefined && (
                <span className="muted small" data-testid="exp-power-clustered">
                    {`Rows grouped by ${spec.cluster}: these figures take the rows as independent; with a design effect D (shown after a run), the run detects what ${formatCount(rows)} / D independent rows would.`}
                </span>
            )}
            {(spec.repeats ?? 1) > 1 && (
                <span className="muted small" data-testid="exp-power-repeats">
                    {`Each row asked ${spec.repeats} times: these figures count each row once. Repeats average away only the model's own noise, so the run detects something between what ${formatCount(rows)} and ${formatCount(rows * spec.repeats!)} independent rows would; after the run the Repeats card says how much they narrowed the interval.`}
                </span>
            )}
            <span className="muted small" data-testid="exp-power-source">
                {measured !== undefined
                    ? `Discordance ${formatMetric(measured.discordance)}: the share of rows only one variant got right in “${measured.experiment}” on this dataset (${formatCount(measured.rows)} rows).`
                    : "Discordance assumed (no finished experiment on this dataset yet): the share of rows only one variant gets right."}
            </span>
            <div className="row-gap">
                {measured === undefined && (
                    <label className="field exp-power-field">Assumed discordance
                        <input className="input input-sm mono" type="number" min={0.01} max={1} step={0.01} value={assumed} data-testid="exp-power-discordance"
                            onChange={(event) => setAssumed(Math.min(1, Math.max(0.01, Number(event.target.value) || assumedDiscordance)))} />
                    </label>
                )}
                <label className="field exp-power-field">Difference to detect
                    <input className="input input-sm mono" type="number" min={0.001} max={1} step={0.01} value={wanted} data-testid="exp-power-difference"
                        onChange={(event) => setWanted(event.target.value)} />
                </label>
                <span className="small" data-testid="exp-power-needed">
                    {needed === null
                        ? delta > discordance ? `A difference above the discordance (${formatMetric(discordance)}) cannot happen.` : "Type a difference above 0."
                        : `needs ${formatCount(needed)} rows for an ${percent} chance`}
                </span>
            </div>
        </div>
    );
}
