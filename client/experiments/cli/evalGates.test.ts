// eval's CI gates end to end against a scripted server: a baseline run written with --results, a run whose prompt got
// worse (a regression found, a required row failing, the JUnit, JSON and markdown outputs), a run that only repeats
// the baseline's noise (no regression), --filter-failing re-running only the rows that failed, a Wilson bound gate,
// an experiment file as the baseline (its run read from a results database), and every new flag's bad input refused
// before anything is sent.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {chatReply, promptText} from "../../../test/support/chatReply.ts";
import {startTestServer, type TestServer} from "../../../test/support/startTestServer.ts";
import {evalHere} from "../../../test/support/evalHere.ts";
import {openSqlite} from "../../../base/node/sqlite.ts";
import {evalReportFormat, type EvalReport} from "./evalReports.ts";

let dir: string;
let good: TestServer, worse: TestServer;

/** Row i's question is "Tell me about item i."; a reply passes the check when it contains "ok". */
const item = (text: string) => Number(/item (\d+)/.exec(text)?.[1]);
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-eval-gates-"));
    // The good prompt fails rows 0, 10, 20 and 30; the worse one also rows 1–12.
    good = await startTestServer([chatReply({answer: (request) => item(promptText(request)) % 10 === 0 ? "no" : "ok"})]);
    worse = await startTestServer([chatReply({answer: (request) => item(promptText(request)) % 10 === 0 || (item(promptText(request)) >= 1 && item(promptText(request)) <= 12) ? "no" : "ok"})]);
});
after(async () => {
    await good?.close();
    await worse?.close();
    await rm(dir, {recursive: true, force: true});
});

/** An experiment of one chat variant "A" over 40 rows against `baseUrl`; row 5 is marked in the column "must". */
async function writeExperiment(name: string, baseUrl: string): Promise<string> {
    const csv = ["id,question,expected,must", ...Array.from({length: 40}, (_, index) => `r${index},Tell me about item ${index}.,ok,${index === 5 ? "yes" : ""}`)].join("\n");
    await writeFile(path.join(dir, `${name}.csv`), `${csv}\n`);
    const file = path.join(dir, `${name}.svc-experiment.json`);
    await writeFile(file, JSON.stringify({
        format: "svc-experiment", version: 1, id: name, name, seed: 1, concurrency: 4,
        dataset: {file: `${name}.csv`, labelColumns: ["expected"]},
        variants: [{name: "A", connection: {baseUrl}, version: {prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "{{question}}"}]}}}}],
        checks: [{kind: "contains", column: "expected"}]
    }));
    return file;
}

const local = (name: string) => path.join(dir, name);

test("a baseline, a worse run that regresses and fails a required row, a run of the same noise that does not, and the CI outputs", async () => {
    const base = await writeExperiment("base", good.url);
    const baseline = local("base.svc-results.json");
    // 36 of 40 pass: 0.900, Wilson 95% lower bound 0.769 (scipy binomtest(36, 40).proportion_ci(method="wilson")).
    const first = await evalHere([base, "--no-cache", "--results", baseline, "--fail-under-bound", "pass_rate=0.75", "--fail-under-bound", "A:error_rate=0.1"]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /pass_rate=0\.75: met \(A Pass rate 0\.900, 95% lower bound 0\.769\)/);
    assert.match(first.stderr, /A:error_rate=0\.1: met \(A error rate 0\.000, 95% upper bound 0\.088: 0 of 40 cells errored\)/);
    const tooHigh = await evalHere([base, "--no-cache", "--fail-under-bound", "pass_rate=0.8"]);
    assert.equal(tooHigh.code, 1, "0.900 is above 0.8, but its lower bound 0.769 is not");
    assert.match(tooHigh.stderr, /pass_rate=0\.8: missed, a 95% lower bound of at least 0\.8 wanted/);

    // The worse prompt (another server, so another run): rows 1–12 now fail, 11 of them (all but row 10) newly:
    // 11 regressed, none improved, one-sided p = 0.5^11 = 0.00048828125 (scipy binomtest(11, 11, alternative="greater")).
    const worseFile = await writeExperiment("worse", worse.url);
    const [junit, json, markdown] = [local("out/eval.xml"), local("out/eval.json"), local("out/eval.md")];
    const regressed = await evalHere([worseFile, "--no-cache", "--baseline", baseline, "--no-regression", "--row-key", "id", "--required", "must",
        "--junit", junit, "--json", json, "--summary-md", markdown]);
    assert.equal(regressed.code, 1, regressed.stderr);
    assert.match(regressed.stderr, /--baseline .*base\.svc-results\.json: 40 rows matched by their key/);
    assert.match(regressed.stderr, /no regression: A · Pass rate: regressed \(0\.900 → 0\.625 on 40 paired rows: 11 regressed, 0 improved; one-sided p < 0\.001, Holm-adjusted p < 0\.001\)/);
    assert.match(regressed.stderr, /required rows \(must\): missed, A row 6 failed/);
    const report = JSON.parse(await readFile(json, "utf8")) as EvalReport;
    assert.equal(report.format, evalReportFormat);
    assert.equal(report.version, 1);
    assert.equal(report.exitCode, 1);
    assert.deepEqual(report.gates.map((gate) => [gate.kind, gate.ok]), [["regression", false], ["required", false]]);
    assert.ok(Math.abs(report.baseline!.tests[0].pValue - 0.00048828125) < 1e-12);
    assert.deepEqual(report.requiredRows, [{variant: "A", row: 6, ok: false, reason: "failed"}]);
    assert.equal(report.summary.rows, 40);
    const xml = await readFile(junit, "utf8");
    assert.match(xml, /<testsuite name="svc-studio eval: worse" tests="3" failures="3"/);
    assert.match(xml, /<testcase classname="required rows" name="A row 6">\n\s+<failure message="A row 6: failed">/);
    const md = await readFile(markdown, "utf8");
    assert.match(md, /^### worse: 2 of 2 gates missed/);
    assert.match(md, /\| ❌ `no regression: A · Pass rate` \|/);
    assert.match(md, /\| A · Pass rate \| 0\.900 → 0\.625 \| 11 \/ 0 \| p < 0\.001 \(regressed\) \|/);

    // The same prompt again (the good server under another name): the same rows pass, nothing regressed.
    const again = await writeExperiment("again", good.url);
    const same = await evalHere([again, "--no-cache", "--baseline", baseline, "--no-regression=A:pass_rate", "--required", "must"]);
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stderr, /no regression: A · Pass rate: no significant regression \(0\.900 → 0\.900 on 40 paired rows: 0 regressed, 0 improved/);
    assert.match(same.stderr, /required rows \(must\): met, every variant passed all 1/);

    // Only the 4 rows that failed in the baseline are run again.
    const sent = good.requests.length;
    const retried = await evalHere([again, "--no-cache", "--db", local("retry.sqlite"), "--filter-failing", baseline]);
    assert.equal(retried.code, 0, retried.stderr);
    assert.match(retried.stderr, /--filter-failing: 4 rows failed in .*base\.svc-results\.json; running the 4 of them in this sample/);
    assert.equal(good.requests.length - sent, 4);
});

test("an experiment file as the baseline: the approved version's run is read from the results database, an edit of it regresses; a run stored nowhere or unfinished is refused", async () => {
    const topic = await writeExperiment("topic", good.url);
    const approved = await evalHere([topic, "--no-cache"]);
    assert.equal(approved.code, 0, approved.stderr);
    // The approved version kept as a file of its own; the experiment itself is then edited to the worse prompt.
    const approvedFile = local("approved.svc-experiment.json");
    await writeFile(approvedFile, await readFile(topic, "utf8"));
    await writeExperiment("topic", worse.url);
    // Its run is in topic's own database (this run's --db), not beside approved.svc-experiment.json. The same 11
    // regressed rows as against the results file: one-sided p = 0.5^11 (scipy binomtest(11, 11, alternative="greater")).
    const json = local("out/topic.json");
    const edited = await evalHere([topic, "--no-cache", "--baseline", approvedFile, "--no-regression", "--row-key", "id", "--json", json]);
    assert.equal(edited.code, 1, edited.stderr);
    assert.match(edited.stderr, /--baseline .*approved\.svc-experiment\.json: 40 rows matched by their key/);
    assert.match(edited.stderr, /no regression: A · Pass rate: regressed \(0\.900 → 0\.625 on 40 paired rows: 11 regressed, 0 improved/);
    const report = JSON.parse(await readFile(json, "utf8")) as EvalReport;
    assert.ok(Math.abs(report.baseline!.tests[0].pValue - 0.00048828125) < 1e-12);
    // The approved version against itself: its own stored run on both sides, nothing sent, nothing regressed.
    const sent = good.requests.length;
    const itself = await evalHere([approvedFile, "--no-cache", "--db", local("topic.svc-experiment.results.sqlite"), "--baseline", approvedFile, "--no-regression"]);
    assert.equal(itself.code, 0, itself.stderr);
    assert.match(itself.stderr, /0 regressed, 0 improved/);
    assert.equal(good.requests.length, sent);

    const never = await writeExperiment("never", good.url);
    const refused = await evalHere([topic, "--no-cache", "--baseline", never, "--no-regression"]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /eval: --baseline: .*never\.svc-experiment\.json is an experiment file, and no results database holds its run \(looked in .*never\.svc-experiment\.results\.sqlite and .*topic\.svc-experiment\.results\.sqlite\)/);
    // A run with a cell missing from its database is not a baseline: it says how many cells are stored.
    const partial = await writeExperiment("partial", good.url);
    assert.equal((await evalHere([partial, "--no-cache"])).code, 0);
    const database = openSqlite(local("partial.svc-experiment.results.sqlite"));
    database.prepare("DELETE FROM results WHERE row_index = (SELECT MAX(row_index) FROM results)").run();
    database.close();
    const unfinished = await evalHere([topic, "--no-cache", "--baseline", partial, "--no-regression"]);
    assert.equal(unfinished.code, 2, unfinished.stderr);
    assert.match(unfinished.stderr, /eval: --baseline: .*partial\.svc-experiment\.json: its run in .*partial\.svc-experiment\.results\.sqlite is not finished \(39 of 40 cells stored\)/);
    assert.equal(good.requests.length, sent + 40, "only partial's own run was sent");
});

test("the new gates' bad input is refused before anything is sent (exit 2)", async () => {
    const file = await writeExperiment("refused", good.url);
    const sent = good.requests.length;
    const usage = await evalHere([file, "--no-regression"]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--no-regression compares with a baseline: give --baseline <results\.json>/);
    assert.match((await evalHere([file, "--junit", local("x.txt")])).stderr, /--junit must end in \.xml/);
    assert.match((await evalHere([file, "--baseline", local("b.json"), "--no-regression", "pass_rate"])).stderr, /--no-regression takes its metrics after "=": --no-regression=pass_rate/);
    const refused = await evalHere([file, "--baseline", local("missing.json"), "--required", "nope", "--row-key", "expected",
        "--fail-under-bound", "score:x=0.5", "--filter-failing", local("missing-too.json")]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /eval: --baseline: no such file: .*missing\.json/);
    assert.match(refused.stderr, /eval: --required: no column named "nope"/);
    assert.match(refused.stderr, /eval: --row-key: rows 1 and 2 have the same expected "ok"/);
    assert.match(refused.stderr, /eval: --fail-under-bound score:x=0\.5: /);
    assert.match(refused.stderr, /eval: --filter-failing: no such file: .*missing-too\.json/);
    const notRate = await evalHere([file, "--baseline", local("base.svc-results.json"), "--no-regression=score:x"]);
    assert.equal(notRate.code, 2);
    assert.match(notRate.stderr, /eval: --no-regression score:x: the experiment has no check "x"/);
    assert.equal(good.requests.length, sent, "nothing was sent");
});
