import type {QuestionInfo} from "../../questions/types.ts";

/**
 * The answer columns a question adds to an export, in this order:
 * - yes/no: `<name>.probability` (P(true))
 * - choice: `<name>.choice`, `<name>.confidence`, `<name>.p.<value>` per option
 * - score: `<name>.score` (expected level), `<name>.confidence`, `<name>.p.<level index>` per level
 * then `<name>.explanation` when the set asks for explanations, and `<name>.calibrated` when the set carries a
 * calibration for it (the numbers are then calibrated ones; the column holds true).
 */
export function questionColumns(info: QuestionInfo, options: {explain: boolean, calibrated: boolean}): string[] {
    const columns: string[] = [];
    if (info.kind === "yesno") columns.push(`${info.name}.probability`);
    else {
        columns.push(info.kind === "choice" ? `${info.name}.choice` : `${info.name}.score`, `${info.name}.confidence`);
        for (const option of info.options) columns.push(`${info.name}.p.${String(option.value)}`);
    }
    if (options.explain) columns.push(`${info.name}.explanation`);
    if (options.calibrated) columns.push(`${info.name}.calibrated`);
    return columns;
}

/** Name of the per-row error column: `error`, or `_error`, `__error`... when the sheet has such a column. */
export function errorColumnName(sourceColumns: readonly string[]): string {
    let name = "error";
    while (sourceColumns.includes(name)) name = `_${name}`;
    return name;
}
