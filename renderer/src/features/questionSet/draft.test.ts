import assert from "node:assert/strict";
import {test} from "node:test";
import {parseQuestionSet} from "../../../../client/scoring/index.ts";
import {conversionNotes, formatQuestionSetFile, levelText, splitLevelText, duplicateQuestion, newQuestion, toQuestionSet, type DraftQuestion, type DraftSet} from "./draft.ts";
import {draftFromQuestionSet} from "./draftFromQuestionSet.ts";

function sampleDraft(): DraftSet {
    const questions: DraftQuestion[] = [];
    for (const type of ["predicate", "choice", "score"] as const) questions.push(newQuestion(type, questions));
    questions[0].trueDescription = "it is about the topic";
    questions[1].choices = [
        {id: "c1", value: true, description: "agrees"},
        {id: "c2", value: false, description: ""},
        {id: "c3", value: "unsure", description: "cannot tell"}
    ];
    questions[2].levels = [
        {id: "l1", label: "poor", description: "many errors"},
        {id: "l2", label: "good", description: ""}
    ];
    return {format: "decisions", name: "Sample", description: "", explain: false, maxSoftTokens: null, questions, calibration: null};
}

test("new questions get unique names; a duplicate gets fresh ids and its own name", () => {
    const draft = sampleDraft();
    const another = newQuestion("predicate", draft.questions);
    assert.equal(another.name, "is_relevant_2");
    const copy = duplicateQuestion(draft.questions[1], draft.questions);
    assert.equal(copy.name, "category_copy");
    assert.notEqual(copy.id, draft.questions[1].id);
    assert.notEqual(copy.choices[0].id, draft.questions[1].choices[0].id);
    assert.deepEqual(copy.choices.map((choice) => choice.value), [true, false, "unsure"]);
});

test("decisions: types of choice values are kept, empty descriptions left out; the file passes the server's parser", () => {
    const set = toQuestionSet(sampleDraft());
    assert.equal(set.format, "decisions");
    assert.deepEqual(set.questions[1], {type: "choice", name: "category", instructions: "Which category fits the text best?", choices: [
        {value: true, description: "agrees"}, {value: false}, {value: "unsure", description: "cannot tell"}
    ]});
    assert.deepEqual(set.questions[0], {type: "predicate", name: "is_relevant", instructions: "Is the text relevant to the topic?"});
    assert.doesNotThrow(() => parseQuestionSet(set));
});

test("systemone: predicate -> noul with criteria, boolean values -> \"true\"/\"false\" keys, levels -> criteria strings", () => {
    const draft = {...sampleDraft(), format: "systemone" as const};
    const set = toQuestionSet(draft);
    assert.equal(set.format, "systemone");
    assert.deepEqual(Object.keys(set.questions), ["is_relevant", "category", "quality"]);
    assert.deepEqual(set.questions.is_relevant, {type: "noul", instructions: "Is the text relevant to the topic?", criteria: {true: "it is about the topic"}});
    assert.deepEqual(set.questions.category, {type: "choice", instructions: "Which category fits the text best?", criteria: {true: "agrees", false: null, unsure: "cannot tell"}});
    assert.deepEqual(set.questions.quality, {type: "score", instructions: "How well written is the text?", criteria: ["poor: many errors", "good"]});
    assert.doesNotThrow(() => parseQuestionSet(set));
    assert.equal(conversionNotes(draft).length, 2, conversionNotes(draft).join("\n"));
    assert.equal(conversionNotes(sampleDraft()).length, 1, "decisions: only the predicate's true description has no place");
});

test("the saved file has a fixed key order and 2-space indent, whatever order the draft was built in", () => {
    const draft = {...sampleDraft(), explain: true, description: "d"};
    const text = formatQuestionSetFile(draft);
    assert.ok(text.endsWith("}\n"));
    assert.deepEqual(Object.keys(JSON.parse(text)), ["format", "name", "description", "x_svc", "questions"]);
    assert.match(text, /^\{\n {2}"format": "decisions",\n {2}"name": "Sample",/);
    assert.equal(formatQuestionSetFile(draftFromQuestionSet(JSON.parse(text))), text, "reading the file back and saving it writes the same bytes");
});

test("reading the JSON back keeps ids and what the format cannot carry from the previous draft", () => {
    const draft = sampleDraft();
    const decisions = draftFromQuestionSet(JSON.parse(formatQuestionSetFile(draft)), draft);
    assert.deepEqual(decisions, draft, "decisions JSON of the draft reads back as the same draft (true description kept)");

    const systemone = {...draft, format: "systemone" as const};
    const read = draftFromQuestionSet(JSON.parse(formatQuestionSetFile(systemone)), systemone);
    assert.deepEqual(read, systemone);
});

test("a systemone file read without a previous draft converts to decisions: \"true\" keys become booleans, levels split", () => {
    const text = formatQuestionSetFile({...sampleDraft(), format: "systemone"});
    const read = draftFromQuestionSet(JSON.parse(text));
    const decisions = toQuestionSet({...read, format: "decisions"});
    assert.equal(decisions.format, "decisions");
    assert.deepEqual(decisions.questions[1], {type: "choice", name: "category", instructions: "Which category fits the text best?", choices: [
        {value: true, description: "agrees"}, {value: false}, {value: "unsure", description: "cannot tell"}
    ]});
    assert.deepEqual(decisions.questions[2], {type: "score", name: "quality", instructions: "How well written is the text?", levels: [
        {label: "poor", description: "many errors"}, {label: "good"}
    ]});
    assert.equal(read.questions[0].trueDescription, "it is about the topic");
});

test("an edit in the JSON changes only the item edited; other items keep their ids", () => {
    const draft = sampleDraft();
    const json = JSON.parse(formatQuestionSetFile(draft));
    json.questions[1].choices[2].value = "maybe";
    json.questions[2].name = "renamed";
    const read = draftFromQuestionSet(json, draft);
    assert.equal(read.questions[1].choices[2].value, "maybe");
    assert.equal(read.questions[1].choices[2].id, "c3");
    assert.equal(read.questions[1].choices[0], draft.questions[1].choices[0]);
    assert.equal(read.questions[2].name, "renamed");
    assert.equal(read.questions[2].id, draft.questions[2].id);
});

test("shapes the builder cannot hold are refused with a path; server rules are not (they show in validation)", () => {
    assert.throws(() => draftFromQuestionSet({format: "decisions", questions: [{type: "choice", choices: [{value: 3}]}]}), /questions\[0\]\.choices\[0\]\.value: must be a string or a boolean/);
    assert.throws(() => draftFromQuestionSet({questions: [{type: "maybe"}]}), /questions\[0\]\.type/);
    assert.throws(() => draftFromQuestionSet([]), /body/);
    const oneChoice = draftFromQuestionSet({format: "decisions", questions: [{type: "choice", instructions: "x", choices: [{value: "a"}]}]});
    assert.equal(oneChoice.questions[0].choices.length, 1);
});

test("level text joins label and description and splits back", () => {
    for (const level of [{label: "poor", description: "many errors"}, {label: "good", description: ""}, {label: "a: b", description: "c"}])
        assert.equal(levelText(splitLevelText(levelText(level))), levelText(level));
    assert.deepEqual(splitLevelText(": x"), {label: ": x", description: ""});
});
