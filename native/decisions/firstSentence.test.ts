import {test} from "node:test";
import assert from "node:assert/strict";
import {explanationOpening, firstSentence} from "./explanations.ts";

test("keeps the answer verbatim and cuts the continuation at its first sentence end", () => {
    assert.equal(explanationOpening("iPhone"), "iPhone, because");
    assert.equal(firstSentence("iPhone", " it is small. It is also cheap."), "iPhone, because it is small.");
    assert.equal(firstSentence("Dr. Who", " the input\n  says so! More"), "Dr. Who, because the input says so!");
});

test("drops control characters a small model can emit", () => {
    assert.equal(firstSentence("Yes", " down\u0004 the\u001b road\u0000."), "Yes, because down the road.");
});

test("closes an unfinished sentence with a period", () => {
    assert.equal(firstSentence("Yes", " the cat is red,  "), "Yes, because the cat is red.");
});

test("an empty continuation leaves the answer alone as the sentence", () => {
    assert.equal(firstSentence("No", ""), "No.");
    assert.equal(firstSentence("No", " . "), "No.");
    assert.equal(firstSentence("Maybe?", "\n"), "Maybe?");
});
