import type {CellResult, ExperimentSpec, PromptVersionBody, Variant} from "./types.ts";
import type {QuestionSet} from "../scoring/questions.ts";

// Builders of small experiments for the unit tests of summary, report and export: a decision question set asked of
// a dataset by two or more variants, with the cells their answers would be stored as.

export function decisionVariant(name: string, questionSet: QuestionSet, version = 1): Variant {
    const prompt: PromptVersionBody = {kind: "decision", questionSet, input: {kind: "row"}};
    return {name, version: {itemId: "item", itemName: "Support triage", version, note: "", createdAt: 0, prompt}, connection: {baseUrl: "http://127.0.0.1:8080"}};
}

export function chatVariant(name: string, model: string): Variant {
    const prompt: PromptVersionBody = {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "{{question}}"}]}};
    return {name, version: {itemId: "chat", itemName: "Answer", version: 1, note: "", createdAt: 0, prompt}, connection: {profile: "local"}, model, params: {temperature: 0}};
}

export function experiment(variants: Variant[], seed = 7): ExperimentSpec {
    return {format: "svc-experiment", version: 1, id: "exp", name: "Triage prompt v1 vs v2", dataset: {file: "rows.csv", labelColumns: ["urgent"]}, sample: {kind: "all"}, variants, checks: [], seed, createdAt: 0};
}

/** A /v1/decisions cell answering one predicate question with P(yes) = `probability`. */
export function predicateCell(rowIndex: number, variant: number, probability: number, extra: Partial<CellResult> = {}): CellResult {
    return {
        rowIndex,
        variant,
        ok: true,
        request: {input: `row ${rowIndex}`},
        response: {answers: [{type: "predicate", name: "urgent", probability}]},
        usage: {promptTokens: 100, completionTokens: 1, totalTokens: 101},
        latencyMs: 100 + rowIndex * 10,
        attempts: 1,
        completedAt: 0,
        ...extra
    };
}

export const urgentSet: QuestionSet = {format: "decisions", questions: [{type: "predicate", name: "urgent", instructions: "Is this ticket urgent?"}]};
