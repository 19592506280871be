import {test} from "node:test";
import assert from "node:assert/strict";
import {formatSystemoneResponse} from "./formatResponses.ts";
import {parseSystemoneRequest} from "./parseSystemoneRequest.ts";

// Parsed from text, as the server does: JSON.parse makes "__proto__" an ordinary own key (an object literal would not).
const request = (explain = false, labelMass = false) => parseSystemoneRequest(JSON.parse(`{
    "model": "svc-1-decision",
    "state": {"ticket": "Refund please"},
    "questions": {
        "urgent": {"type": "noul", "instructions": "Is it urgent?"},
        "team": {"type": "choice", "instructions": "Route it.", "criteria": {"billing": "money", "tech": null, "__proto__": "a tricky name"}},
        "severity": {"type": "score", "criteria": ["minor", "major"]}
    },
    "x_svc": {"explain": ${explain}, "label_mass": ${labelMass}}
}`));

const engineAnswers = [
    {probabilities: [0.204, 0.796], explanation: "Nothing is on fire."},
    {probabilities: [0.7, 0.2, 0.1], explanation: "It is about money."},
    {probabilities: [0.9, 0.1], explanation: "A refund is minor."}
];

test("builds the exact wire body with answers keyed by name, legend on score", () => {
    const response = formatSystemoneResponse(request(), {answers: engineAnswers, usage: {inputTokens: 50, outputTokens: 3}});
    assert.equal(JSON.stringify(response), JSON.stringify(JSON.parse(`{
        "model": "svc-1-decision",
        "answers": {
            "urgent": {"type": "noul", "noul": 0.2},
            "team": {"type": "choice", "choice": "billing", "probabilities": {"billing": 0.7, "tech": 0.2, "__proto__": 0.1}, "confidence": 0.55},
            "severity": {"type": "score", "score": 0.1, "probabilities": {"0": 0.9, "1": 0.1}, "confidence": 0.8, "legend": {"0": "minor", "1": "major"}}
        },
        "usage": {"input_tokens": 50, "output_tokens": 3}
    }`)));
    // The option named __proto__ is an own property, not a prototype change.
    const team = response.answers.team;
    assert.ok(team.type === "choice");
    assert.ok(Object.hasOwn(team.probabilities, "__proto__"));
});

test("explanations come back as an object keyed by question name", () => {
    const response = formatSystemoneResponse(request(true), {answers: engineAnswers, usage: {inputTokens: 1, outputTokens: 0}});
    assert.deepEqual(response.x_svc, {explanations: {urgent: "Nothing is on fire.", team: "It is about money.", severity: "A refund is minor."}});
});

test("label masses come back as an object keyed by question name, beside explanations", () => {
    const answers = engineAnswers.map((answer, index) => ({...answer, labelMass: [0.5, 0.123, 0.9][index]}));
    const response = formatSystemoneResponse(request(true, true), {answers, usage: {inputTokens: 1, outputTokens: 0}});
    assert.deepEqual(response.x_svc?.label_mass, {urgent: 0.5, team: 0.12, severity: 0.9});
    assert.deepEqual(Object.keys(response.x_svc ?? {}), ["explanations", "label_mass"]);
    assert.equal(formatSystemoneResponse(request(), {answers, usage: {inputTokens: 1, outputTokens: 0}}).x_svc, undefined);
});

test("probabilities sum to exactly 1.00 and the choice is the raw favourite", () => {
    const response = formatSystemoneResponse(request(), {
        answers: [{probabilities: [0.5, 0.5]}, {probabilities: [0.334, 0.333, 0.333]}, {probabilities: [0.505, 0.495]}],
        usage: {inputTokens: 1, outputTokens: 0}
    });
    const team = response.answers.team;
    assert.ok(team.type === "choice");
    assert.equal(team.choice, "billing");
    assert.equal(Math.round(Object.values(team.probabilities).reduce((a, b) => a + b, 0) * 100), 100);
    const severity = response.answers.severity;
    assert.ok(severity.type === "score");
    assert.deepEqual(severity.probabilities, {0: 0.51, 1: 0.49});
    assert.equal(severity.confidence, 0.01);
});
