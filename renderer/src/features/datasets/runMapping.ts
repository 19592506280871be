// How a chat run becomes a row of a saved dataset: each of the run's fields (system prompt, last user message, the
// conversation, the reply) goes into a column the person picks, a new column of its own name, or nowhere. Nothing is
// added to a dataset's columns unless asked for.
import type {CellValue} from "../../../../client/scoring/index.ts";

export const runFields = ["system", "user", "messages", "reply"] as const;
export type RunField = typeof runFields[number];

/** Where each field goes: a column of the dataset (an existing one, or a new one of the field's name), or null: left out. */
export type RunMapping = Record<RunField, string | null>;

/** Names of a column that holds a model's answer. */
const answerLike = /^(reply|answer|output|response|completion)$/i;

/**
 * A first mapping onto a dataset: each field to the column of its own name; else the last user message to the first
 * column the model sees that is no label (a question set's `text`, `question`...), and the reply to a column named like
 * an answer; everything else is left out, so the dataset's columns stay as they are.
 */
export function defaultRunMapping(dataset: {columns: readonly string[], labelColumns: readonly string[], inputColumns: readonly string[]}): RunMapping {
    const same = (field: RunField): string | null => dataset.columns.includes(field) ? field : null;
    const taken = new Set<string>(runFields.flatMap((field) => same(field) ?? []));
    const user = same("user") ?? dataset.inputColumns.find((column) => !dataset.labelColumns.includes(column) && !taken.has(column)) ?? null;
    if (user !== null) taken.add(user);
    const reply = same("reply") ?? dataset.columns.find((column) => answerLike.test(column) && !taken.has(column)) ?? null;
    return {system: same("system"), user, messages: same("messages"), reply};
}

/** The run's fields as the row to add: each mapped field under its column; the fields left out are not in it. */
export function mappedRecord(record: Record<RunField, CellValue>, mapping: RunMapping): Record<string, CellValue> {
    const row: Record<string, CellValue> = {};
    for (const field of runFields) {
        const column = mapping[field];
        if (column !== null) row[column] = record[field];
    }
    return row;
}
