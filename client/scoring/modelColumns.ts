// Which columns of a table a request to the model may carry. One rule, here, for every sender (spreadsheet scoring,
// an experiment's decision and chat variants in the app and in `svc-studio eval`, `svc-studio score`): a label column
// holds the right answer, so it reaches the model only when the user ticked it as a column the model sees.

/**
 * A table's columns and their roles. `labelColumns` hold expected values; `inputColumns` are the columns the model
 * sees (a label column among them was ticked on purpose). Without `inputColumns`, the model sees every column but the
 * labels; without `labelColumns`, no column is a label.
 */
export type ColumnRoles = {
    columns: readonly string[],
    labelColumns?: readonly string[],
    inputColumns?: readonly string[]
};

/** The columns whole-row input sends when it names none: the ticked ones, else every column but the labels. */
export function modelColumns(roles: ColumnRoles): string[] {
    const labels = new Set(roles.labelColumns ?? []);
    const ticked = roles.inputColumns === undefined ? null : new Set(roles.inputColumns);
    return roles.columns.filter((column) => ticked === null ? !labels.has(column) : ticked.has(column));
}

/** The label columns among `named` that the model may not see (not ticked), in the order named, each once. */
export function hiddenLabelColumns(named: readonly string[], roles: ColumnRoles): string[] {
    const labels = new Set(roles.labelColumns ?? []);
    const ticked = new Set(roles.inputColumns ?? []);
    return [...new Set(named)].filter((column) => labels.has(column) && !ticked.has(column));
}

/** A request would carry a label column the user did not tick: refused before anything is sent. */
export class LabelColumnError extends Error {
    public readonly columns: string[];

    public constructor(what: string, columns: string[]) {
        const names = columns.map((column) => JSON.stringify(column)).join(", ");
        super(`${what} names the label column${columns.length === 1 ? "" : "s"} ${names}, which would tell the model the answer: ` +
            `use other columns, or tick ${columns.length === 1 ? "it" : "them"} as seen by the model if that is meant`);
        this.name = "LabelColumnError";
        this.columns = columns;
    }
}

/** Throws LabelColumnError when `named` holds a label column the model may not see. */
export function assertModelMaySee(named: readonly string[], roles: ColumnRoles, what: string): void {
    const hidden = hiddenLabelColumns(named, roles);
    if (hidden.length > 0) throw new LabelColumnError(what, hidden);
}
