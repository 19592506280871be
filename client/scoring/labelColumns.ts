// Which columns of a table hold the right answers: the Evaluation screen guesses one per question, and whole-row
// input leaves them out by default (a label sent with the row tells the model the answer).

/**
 * The column that most likely holds a question's labels: `<name>_label`, `label_<name>`, `<name>`, `<name>_gold`
 * or `gold_<name>` (any case), else `label` when that is the only label-like column; null when none fits.
 */
export function guessLabelColumn(questionName: string, columns: readonly string[]): string | null {
    const lower = questionName.toLowerCase();
    const wanted = [`${lower}_label`, `label_${lower}`, lower, `${lower}_gold`, `gold_${lower}`, `${lower}.label`];
    for (const name of wanted) {
        const found = columns.find((column) => column.toLowerCase() === name);
        if (found !== undefined) return found;
    }
    const generic = columns.filter((column) => /^(label|gold|truth|expected)$/i.test(column));
    return generic.length === 1 ? generic[0] : null;
}

/** A name with the word label, gold, truth or expected in it (`label`, `stars_gold`, `expected score`). */
const labelWord = /(^|[^a-z])(labels?|gold|truth|expected)([^a-z]|$)/i;

/**
 * The columns that hold labels for a question set: each question's guessed label column (which may be named
 * like the question itself) and every column whose name says label, gold, truth or expected.
 */
export function labelColumns(questionNames: readonly string[], columns: readonly string[]): Set<string> {
    const found = new Set(columns.filter((column) => labelWord.test(column)));
    for (const name of questionNames) {
        const column = guessLabelColumn(name, columns);
        if (column !== null) found.add(column);
    }
    return found;
}

/** The columns whole-row input sends unless a person picks others: every column but the label columns. */
export function defaultRowColumns(questionNames: readonly string[], columns: readonly string[]): string[] {
    const labels = labelColumns(questionNames, columns);
    return columns.filter((column) => !labels.has(column));
}
