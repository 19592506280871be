// eval --fit-grader-calibration end to end against a scripted server (chat replies, and a grader whose P(yes) comes
// from a hash of what it reads): the run's labelled replies calibrate the grader, the experiment file is written again
// with the calibration on it, and a run of that file scores the grader through it; refused before anything is sent
// when no grader has human labels.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {chatReply} from "../../../test/support/chatReply.ts";
import {startTestServer, type TestServer} from "../../../test/support/startTestServer.ts";
import {evalHere} from "../../../test/support/evalHere.ts";
import {parseExperimentSpec} from "../experimentFile.ts";
import {parseExperimentResults} from "../resultsFile.ts";
import {fitGraderCalibration} from "../graderCalibration.ts";
import {calibratedGraderScore} from "../graderQuestions.ts";

let dir: string;
let server: TestServer;

before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-eval-calibration-"));
    server = await startTestServer([chatReply()]);
});
after(async () => {
    await server?.close();
    await rm(dir, {recursive: true, force: true});
});

/** One chat variant over 30 rows with a grader; with `labelled`, its humanLabelColumn is `polite` (yes on even rows). */
async function writeExperiment(name: string, labelled: boolean): Promise<string> {
    const csv = ["question,polite", ...Array.from({length: 30}, (_, index) => `Tell me about item ${index}.,${index % 2 === 0 ? "yes" : "no"}`)].join("\n");
    await writeFile(path.join(dir, `${name}.csv`), `${csv}\n`);
    const file = path.join(dir, `${name}.svc-experiment.json`);
    await writeFile(file, JSON.stringify({
        format: "svc-experiment", version: 1, id: name, name, seed: 1, concurrency: 4,
        dataset: {file: `${name}.csv`, labelColumns: ["polite"]},
        variants: [{name: "A", connection: {baseUrl: server.url}, version: {prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "{{question}}"}]}}}}],
        checks: [{kind: "grader", name: "judge", question: "Is it polite?", template: "Reply: {{reply}}", ...labelled ? {humanLabelColumn: "polite"} : {}}]
    }));
    return file;
}

test("the grader is calibrated on the run's labelled replies, the file written with it, and a run of that file scores through it", async () => {
    const file = await writeExperiment("polite", true);
    const [out, results, again] = [path.join(dir, "out/calibrated.svc-experiment.json"), path.join(dir, "first.svc-results.json"), path.join(dir, "again.svc-results.json")];
    const run = await evalHere([file, "--no-cache", "--results", results, "--fit-grader-calibration", out]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /--fit-grader-calibration: judge: Platt scaling on 30 labelled replies \(temperature \d+\.\d{3}, bias -?\d+\.\d{3}\); ECE \d\.\d{3} → \d\.\d{3} out of fold \(5 folds, 30 rows\)/);
    assert.match(run.stderr, /wrote .*calibrated\.svc-experiment\.json/);
    // The file as read (its dataset file, its connection), with the fit the run's cells give on the grader.
    const written = parseExperimentSpec(await readFile(out, "utf8"));
    const original = parseExperimentSpec(await readFile(file, "utf8"));
    const first = parseExperimentResults(await readFile(results, "utf8"));
    const grader = written.checks[0];
    assert.ok(grader.kind === "grader" && grader.calibration !== undefined);
    const {calibration: _calibration, ...rest} = grader;
    assert.deepEqual({...written, checks: [rest]}, original);
    const expected = fitGraderCalibration(first.experiment, first.experiment.dataset, first.cells, 0).calibration;
    assert.deepEqual({...grader.calibration, fittedAt: ""}, {...expected, fittedAt: ""});
    assert.equal(grader.calibration.fittedOn, 30);

    // Written beside the dataset it names, the calibrated file runs: each grade is the first run's raw P(yes) through the calibration.
    const beside = path.join(dir, "calibrated.svc-experiment.json");
    await writeFile(beside, await readFile(out, "utf8"));
    const calibrated = await evalHere([beside, "--no-cache", "--results", again]);
    assert.equal(calibrated.code, 0, calibrated.stderr);
    const second = parseExperimentResults(await readFile(again, "utf8"));
    const rawOf = new Map(first.cells.map((cell) => [cell.rowIndex, cell.checks![0].score]));
    for (const cell of second.cells) {
        const result = cell.checks![0];
        assert.equal(result.rawScore, rawOf.get(cell.rowIndex));
        assert.equal(result.score, calibratedGraderScore(grader, result.rawScore!));
        assert.equal(result.pass, result.score >= 0.5);
        assert.match(result.detail ?? "", /^P\(yes\) = \d\.\d{3}, calibrated \d\.\d{3}$/);
    }
});

test("with no grader that has human labels, --fit-grader-calibration is refused before anything is sent (exit 2)", async () => {
    const file = await writeExperiment("unlabelled", false);
    const sent = server.requests.length;
    const refused = await evalHere([file, "--fit-grader-calibration", path.join(dir, "x.svc-experiment.json")]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /eval: --fit-grader-calibration: no grader of the experiment has a humanLabelColumn to fit a calibration on/);
    assert.match((await evalHere([file, "--fit-grader-calibration", path.join(dir, "x.txt")])).stderr, /--fit-grader-calibration must end in \.json/);
    assert.equal(server.requests.length, sent);
});
