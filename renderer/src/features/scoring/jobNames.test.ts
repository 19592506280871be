import assert from "node:assert/strict";
import {test} from "node:test";
import {defaultJobName, jobName, jobTime, keepJobNames, renameJob, useJobNames} from "./jobNames.ts";

const job = (jobId: string, createdAt: number) => ({jobId, fileName: "reviews.csv", sheet: null, questionSetName: "Tone", createdAt});

test("two jobs of one file and question set have different default names: their start times", () => {
    const morning = job("a", Date.UTC(2025, 2, 3, 9, 5)), afternoon = job("b", Date.UTC(2025, 2, 3, 15, 40));
    assert.equal(defaultJobName(morning), `reviews.csv · Tone · ${jobTime.format(morning.createdAt)}`);
    assert.notEqual(defaultJobName(morning), defaultJobName(afternoon));
    assert.equal(defaultJobName({...morning, sheet: "March", questionSetName: null}), `reviews.csv · March · untitled question set · ${jobTime.format(morning.createdAt)}`);
});

test("a job keeps the name given to it; a blank name gives it its default again; names of jobs no longer saved go", () => {
    const first = job("a", 0), second = job("b", 60_000);
    renameJob(first, "  Before the price change ");
    assert.equal(jobName(first), "Before the price change");
    assert.equal(jobName(second), defaultJobName(second));
    renameJob(second, "After");
    renameJob(first, " ");
    assert.equal(jobName(first), defaultJobName(first));
    assert.deepEqual(useJobNames.getState().names, {b: "After"});
    keepJobNames(new Set(["a"]));
    assert.deepEqual(useJobNames.getState().names, {});
});
