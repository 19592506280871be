import {isRecord} from "../yamlDocument.ts";

// OpenAI Evals templates as the experiment's: `{{item.<field>}}` is the row's column `<field>`, and
// `{{sample.output_text}}` the reply a grader judges (`{{reply}}`). Fields inside fields (`{{item.a.b}}`) and other
// namespaces (`{{sample.output_json.x}}`, `{{sample.choices...}}`) have no counterpart.

/** The reply's variable in a grader's template (checks.ts replyVariable). */
const reply = "{{reply}}";

export type Translated = {text: string, columns: string[], problem: string | null};

/** An Evals template in the experiment's `{{column}}` form, the columns it names, and what could not be translated. */
export function translateTemplate(text: string): Translated {
    const columns: string[] = [];
    let problem: string | null = null;
    const translated = text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (whole, inside: string) => {
        if (inside === "sample.output_text") return reply;
        const item = /^item\.([^.[\]]+)$/.exec(inside);
        if (item !== null) {
            if (!columns.includes(item[1])) columns.push(item[1]);
            return `{{${item[1]}}}`;
        }
        problem ??= `${whole} has no counterpart: only {{item.<field>}} and {{sample.output_text}} are imported`;
        return whole;
    });
    return {text: translated, columns, problem};
}

/** A message of an Evals template or grader input: EasyInputMessage or `{type: "message", role, content}`. */
export type EvalMessage = {role: string, content: string};

/** The text of a message's content: a string, an `input_text` / `output_text` part, or a list of text parts. */
export function messageText(content: unknown): string | null {
    if (typeof content === "string") return content;
    if (isRecord(content) && (content.type === "input_text" || content.type === "output_text") && typeof content.text === "string") return content.text;
    if (Array.isArray(content)) {
        const parts = content.map((part) => messageText(part));
        return parts.every((part) => part !== null) ? parts.join("\n") : null;
    }
    return null;
}

/** The messages of a template list; null (with the index at fault) when one is no text message. */
export function readMessages(value: unknown): {messages: EvalMessage[]} | {bad: number | null} {
    if (!Array.isArray(value)) return {bad: null};
    const messages: EvalMessage[] = [];
    for (const [index, item] of value.entries()) {
        const text = isRecord(item) ? messageText(item.content) : null;
        if (!isRecord(item) || typeof item.role !== "string" || text === null) return {bad: index};
        messages.push({role: item.role, content: text});
    }
    return {messages};
}
