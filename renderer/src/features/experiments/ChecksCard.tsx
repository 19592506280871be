// The checks every chat variant's reply goes through, and the decision-question grader of the replies.
import {Icon} from "../../ui/controls.tsx";
import {newCheck, updateCheck, useDraftStore, type CheckDraft} from "./draftStore.ts";
import {describeCalibrationFit} from "../../../../client/experiments/graderAgreementText.ts";

const kindNames: Record<CheckDraft["kind"], string> = {
    equals: "equals a column",
    contains: "contains a column",
    regex: "matches a regex",
    is_json: "is JSON",
    json_schema: "fits a JSON schema"
};

/** The checks of chat replies; a new "equals a column" check starts on the first label column (the expected value). */
export function ChecksCard({columns, labelColumns}: {columns: readonly string[], labelColumns: readonly string[]}) {
    const checks = useDraftStore((state) => state.draft.checks);
    const set = useDraftStore((state) => state.set);
    return (
        <section className="card exp-checks" data-testid="exp-checks">
            <div className="card-title-row">
                <h3>Checks of chat replies</h3>
                <button type="button" className="btn btn-sm push-right" data-testid="exp-add-check" onClick={() => set({checks: [...checks, newCheck({column: labelColumns[0] ?? columns[0] ?? ""})]})}>
                    <Icon name="plus" /> Add check
                </button>
            </div>
            {checks.length === 0 && <div className="muted small">No check: chat variants are compared on the grader only (or on usage and latency).</div>}
            {checks.map((check, index) => (
                <CheckRow key={check.id} check={check} index={index} columns={columns} onRemove={() => set({checks: checks.filter((other) => other.id !== check.id)})} />
            ))}
            <GraderEditor columns={columns} />
        </section>
    );
}

type CheckRowProps = {check: CheckDraft, index: number, columns: readonly string[], onRemove: () => void};

function CheckRow({check, index, columns, onRemove}: CheckRowProps) {
    const change = (patch: Partial<CheckDraft>) => updateCheck(check.id, patch);
    const label = (text: string) => `Check ${index + 1}: ${text}`;
    return (
        <div className="exp-check" data-testid="exp-check">
            <select className="input input-sm" value={check.kind} aria-label={label("kind")} data-testid="exp-check-kind"
                onChange={(event) => change({kind: event.target.value as CheckDraft["kind"]})}>
                {Object.entries(kindNames).map(([kind, name]) => <option key={kind} value={kind}>The reply {name}</option>)}
            </select>
            {(check.kind === "equals" || check.kind === "contains") && <>
                <select className="input input-sm" value={check.column} aria-label={label("column with the expected value")} data-testid="exp-check-column"
                    onChange={(event) => change({column: event.target.value})}>
                    <option value="">column…</option>
                    {columns.map((column) => <option key={column} value={column}>{column}</option>)}
                </select>
                <label className="check small">
                    <input type="checkbox" checked={check.caseSensitive} onChange={(event) => change({caseSensitive: event.target.checked})} /> case-sensitive
                </label>
            </>}
            {check.kind === "regex" && <>
                <input className="input input-sm mono" value={check.pattern} placeholder="^(yes|no)$" aria-label={label("pattern")} data-testid="exp-check-pattern"
                    onChange={(event) => change({pattern: event.target.value})} />
                <input className="input input-sm mono exp-flags" value={check.flags} placeholder="i" aria-label={label("flags")} onChange={(event) => change({flags: event.target.value})} />
            </>}
            {check.kind === "json_schema" && (
                <textarea className="textarea mono exp-schema" value={check.schema} rows={4} aria-label={label("JSON schema")} data-testid="exp-check-schema"
                    onChange={(event) => change({schema: event.target.value})} />
            )}
            <button type="button" className="icon-btn push-right" aria-label={label("remove")} title="Remove this check" onClick={onRemove}><Icon name="close" /></button>
        </div>
    );
}

/** A yes/no decision question asked about each reply; its P(yes) is the row's grade. */
function GraderEditor({columns}: {columns: readonly string[]}) {
    const grader = useDraftStore((state) => state.draft.grader);
    const set = useDraftStore((state) => state.set);
    const change = (patch: Partial<typeof grader>) => set({grader: {...grader, ...patch}});
    return (
        <fieldset className="exp-grader" data-testid="exp-grader">
            <legend>
                <label className="check">
                    <input type="checkbox" checked={grader.enabled} data-testid="exp-grader-enabled" onChange={(event) => change({enabled: event.target.checked})} />
                    Grade each reply with a yes/no decision question
                </label>
            </legend>
            {grader.enabled && (
                <div className="exp-grader-fields">
                    <label className="field">Name<input className="input input-sm mono" value={grader.name} data-testid="exp-grader-name" onChange={(event) => change({name: event.target.value})} /></label>
                    <label className="field">Pass at P(yes) ≥<input className="input input-sm mono exp-threshold" value={grader.threshold} onChange={(event) => change({threshold: event.target.value})} /></label>
                    <label className="field exp-grader-question">Question<input className="input input-sm" value={grader.question} data-testid="exp-grader-question"
                        onChange={(event) => change({question: event.target.value})} /></label>
                    <label className="field exp-grader-template">Input (use {"{{reply}}"} and any {"{{column}}"})
                        <textarea className="textarea mono" rows={3} value={grader.template} data-testid="exp-grader-template" onChange={(event) => change({template: event.target.value})} />
                    </label>
                    <label className="field" title="A column where people said, on some rows, whether the reply passes: the results then measure the grader against them and correct its pass rate. Keep it a label column, so no prompt is sent with it.">
                        Human labels
                        <select className="input input-sm" value={grader.humanLabelColumn ?? ""} data-testid="exp-grader-human" onChange={(event) => change({humanLabelColumn: event.target.value})}>
                            <option value="">none</option>
                            {columns.map((column) => <option key={column} value={column}>{column}</option>)}
                        </select>
                    </label>
                    {grader.calibration !== undefined && (
                        <div className="small exp-grader-calibration" data-testid="exp-grader-calibration"
                            title="Platt scaling of the grader's score fitted on replies people labelled; its score goes through it before the threshold">
                            Calibrated on {grader.calibration.fittedOn} labelled replies (ECE {describeCalibrationFit({...grader.calibration, eceBefore: grader.calibration.before.ece, eceAfter: grader.calibration.after.ece})})
                            <button type="button" className="btn btn-sm btn-ghost" data-testid="exp-grader-calibration-remove" onClick={() => change({calibration: undefined})}>Remove</button>
                        </div>
                    )}
                </div>
            )}
        </fieldset>
    );
}
