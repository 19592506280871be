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
