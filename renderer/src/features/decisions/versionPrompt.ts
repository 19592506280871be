// What the Decision studio gives versions: its question set as a version's prompt (with how a dataset row goes in), and a
// question-set version opened again in the studio (which asks first when the set holds unsaved edits).
import type {DecisionPrompt, PromptVersion} from "../../../../client/experiments/types.ts";
import {parseQuestionSet, type InputMapping, type QuestionSet} from "../../../../client/scoring/index.ts";
import type {Opened} from "../versions/SaveVersionPanel.tsx";
import {draftFromQuestionSet} from "../questionSet/draftFromQuestionSet.ts";
import {documentProblem, useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {useScoringStore} from "../scoring/scoringStore.ts";
import {requestReplacement} from "./setReplacement.ts";
import {useDecisionInputStore} from "./studioState.ts";
import {datasetRowMapping} from "./decisionInput.ts";

/**
 * How a dataset row goes in for a question-set version: exactly the input the studio shows. Text and a JSON state are
 * kept as templates (their `{{column}}` placeholders take each row's cells in an experiment); a table row keeps its
 * mapping: a saved dataset's row template (or the row as JSON over the columns the model sees), or the scoring
 * table's mapping.
 */
export function studioInputMapping(): InputMapping {
    const input = useDecisionInputStore.getState();
    if (input.mode === "text") return {kind: "template", template: input.text};
    if (input.mode === "json") return {kind: "template", template: input.jsonText.trim()};
    return input.datasetId !== null ? datasetRowMapping(input.rowTemplate) : useScoringStore.getState().mapping;
}

/** The studio's question set as a version's prompt; refused while the set has a problem the server would refuse. */
export function decisionPromptOfStudio(): DecisionPrompt | {error: string} {
    const document = useQuestionSetStore.getState();
    const problem = documentProblem(document);
    if (problem !== null) return {error: `Fix the question set first: ${problem}`};
    let questionSet: QuestionSet;
    try {
        questionSet = parseQuestionSet(JSON.parse(document.jsonText)).questionSet;
    } catch (error) {
        return {error: `Fix the question set first: ${(error as Error).message}`};
    }
    return {kind: "decision", questionSet, input: studioInputMapping()};
}

/** Puts a question-set version in the builder (undoable there, and asked first over unsaved edits). */
export function openDecisionVersion(version: PromptVersion): Opened {
    const label = `version ${version.version} of "${version.itemName}"`;
    if (version.prompt.kind !== "decision") return {ok: false, text: `${label} is not a question set.`};
    const input = version.prompt.input;
    // The input comes back as it was saved: a template as the text to edit, a whole row as table-row mode.
    requestReplacement({what: label, draft: {...draftFromQuestionSet(version.prompt.questionSet), name: version.itemName}, saved: false, done: `Opened ${label}.`,
        input: input.kind === "template" ? {mode: "text", text: input.template} : {mode: "row"}});
    return {ok: true, text: `Opened ${label} in the Decision studio.`};
}
