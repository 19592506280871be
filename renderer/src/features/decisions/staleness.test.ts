import assert from "node:assert/strict";
import {test} from "node:test";
import {isStale} from "./staleness.ts";
import {elideDataUrls} from "../playground/viewCode.ts";

const body = {model: "svc-1-decision", input: "The battery lasts two days.", questions: [{type: "predicate", name: "positive", instructions: "Positive?"}]};

test("answers are stale once the input or a question differs from the run's request", () => {
    assert.equal(isStale({sent: true, body}, body), false);
    assert.equal(isStale({sent: true, body: {...body, x_svc: {label_mass: true}}}, body), false, "the engine's own label_mass is not an edit");
    assert.equal(isStale({sent: true, body}, {...body, input: "The battery lasts a day."}), true);
    assert.equal(isStale({sent: true, body}, {...body, questions: [{...body.questions[0], instructions: "Negative?"}]}), true);
    assert.equal(isStale({sent: false, body}, {...body, input: "other"}), false, "a run never sent has no answers to go stale");
    assert.equal(isStale({sent: true, body}, null), false);
    const image = `data:image/png;base64,${"A".repeat(5000)}`;
    const withImage = {...body, input: [{role: "user", content: [{type: "input_image", image_url: image}]}]};
    // A kept run holds image data shortened: the same image is no edit.
    assert.equal(isStale({sent: true, body: elideDataUrls(withImage)}, withImage), false);
    assert.equal(isStale({sent: true, body: elideDataUrls(withImage)}, {...withImage, input: [{role: "user", content: [{type: "input_image", image_url: `data:image/png;base64,${"B".repeat(5000)}`}]}]}), true);
});
