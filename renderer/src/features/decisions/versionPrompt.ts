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

/**
 * How a dataset row goes in for a question-set version: the studio's table mapping when its input is a table row,
 * else the row's model-visible columns as JSON.
 */
function studioInputMapping(): InputMapping {
    return useDecisionInputStore.getState().mode === "row" ? useScoringStore.getState().mapping : {kind: "row"};
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
    requestReplacement({what: label, draft: {...draftFromQuestionSet(version.prompt.questionSet), name: version.itemName}, saved: false, done: `Opened ${label}.`});
    return {ok: true, text: `Opened ${label} in the Decision studio.`};
}
