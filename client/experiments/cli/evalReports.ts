import type {ExperimentSpec, ExperimentSummary} from "../types.ts";
import type {BaselineComparison} from "../baseline.ts";
import {formatMetric, formatPValue, metricTitle} from "../metricDefinitions.ts";
import type {GateResult, RequiredRow} from "./evalGates.ts";

// eval's outputs for CI, all from one EvalReport: --json (the whole report, format "svc-eval-report", version 1,
// documented in docs/cli.md), --junit (one test case per gate and per required row and variant) and --summary-md (a
// short markdown table for a pull request: the verdicts, each gate and the worst regressions).

export const evalReportFormat = "svc-eval-report";
export const evalReportVersion = 1;

export type EvalReport = {
    format: typeof evalReportFormat,
    version: typeof evalReportVersion,
    experiment: {id: string, name: string},
    /** The exit code eval returns with this report (0 every gate met, 1 one missed). */
    exitCode: number,
    /** Every gate with its outcome, in the order eval printed them. */
    gates: GateResult[],
    /** With --required: each marked row's outcome per variant. */
    requiredRows: RequiredRow[],
    /** With --baseline: the regression tests and the rows only one run has. */
    baseline: (BaselineComparison & {file: string}) | null,
    /** The experiment's summary: metrics with their intervals, differences, verdicts, disagreements. */
    summary: ExperimentSummary
};

export function evalReport(spec: ExperimentSpec, summary: ExperimentSummary, gates: GateResult[], requiredRows: RequiredRow[], baseline: EvalReport["baseline"], exitCode: number): EvalReport {
    return {format: evalReportFormat, version: evalReportVersion, experiment: {id: spec.id, name: spec.name}, exitCode, gates, requiredRows, baseline, summary};
}

/** The --json file: the report, two-space indented, a final newline. */
export function evalReportJson(report: EvalReport): string {
    return `${JSON.stringify(report, null, 2)}\n`;
}

/** XML 1.0 has no place for control characters other than tab, newline and carriage return. */
function withoutControlCharacters(text: string): string {
    return [...text].filter((character) => {
        const code = character.charCodeAt(0);
        return code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
    }).join("");
}

function xml(text: string): string {
    return withoutControlCharacters(text).replace(/[&<>"']/g, (character) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;"})[character]!);
}

/**
 * The --junit file: a suite "svc-studio eval: <experiment>" with one test case per gate (classname "gates") and per
 * required row and variant (classname "required rows"), a missed one carrying its message as its failure.
 */
export function evalJunit(report: EvalReport): string {
    const cases = [
        ...report.gates.map((gate) => ({classname: `gates.${gate.kind}`, name: gate.name, ok: gate.ok, message: gate.message})),
        ...report.requiredRows.map((row) => ({classname: "required rows", name: `${row.variant} row ${row.row}`, ok: row.ok, message: `${row.variant} row ${row.row}: ${row.reason}`}))
    ];
    const failures = cases.filter((item) => !item.ok).length;
    const name = `svc-studio eval: ${report.experiment.name || report.experiment.id}`;
    const body = cases.map((item) => `    <testcase classname="${xml(item.classname)}" name="${xml(item.name)}">` +
        (item.ok ? "" : `\n      <failure message="${xml(item.message)}">${xml(item.message)}</failure>\n    `) + `</testcase>`).join("\n");
    return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(name)}" tests="${cases.length}" failures="${failures}">\n` +
        `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">\n${body}${body === "" ? "" : "\n"}  </testsuite>\n</testsuites>\n`;
}

/** A markdown table cell: pipes escaped, one line. */
function md(text: string): string {
    return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** Regressions shown in the markdown, the worst (smallest adjusted p-value) first. */
const worstShown = 5;

/**
 * The --summary-md file: a heading with the outcome, the primary verdicts, each gate and, with a baseline, the worst
 * regressions and the rows only one run has.
 */
export function evalMarkdown(report: EvalReport): string {
    const {summary} = report;
    const names = summary.variants.map((variant) => variant.name);
    const missed = report.gates.filter((gate) => !gate.ok).length;
    const lines = [`### ${md(report.experiment.name || report.experiment.id)}: ${missed === 0 ? "every gate met" : `${missed} of ${report.gates.length} gates missed`}`, "",
        `${summary.rows} rows, ${names.length} variant${names.length === 1 ? "" : "s"}. Exit code ${report.exitCode}.`];
    const primaries = summary.differences.filter((difference) => difference.primary);
    if (primaries.length > 0) {
        lines.push("", "| Compared | Metric | Verdict |", "|---|---|---|");
        for (const difference of primaries)
            lines.push(`| ${md(`${names[difference.b]} vs ${names[difference.a]}`)} | ${md(metricTitle(difference.metric, difference.question))} | ${md(difference.verdict)} |`);
    }
    if (report.gates.length > 0) {
        lines.push("", "| Gate | Result |", "|---|---|");
        for (const gate of report.gates) lines.push(`| ${gate.ok ? "✅" : "❌"} \`${md(gate.name)}\` | ${md(gate.message)} |`);
    }
    const baseline = report.baseline;
    if (baseline !== null) {
        const worst = baseline.tests.filter((test) => test.problem === undefined && test.regressed > test.improved).sort((x, y) => x.adjusted - y.adjusted).slice(0, worstShown);
        lines.push("", `Against the baseline \`${md(baseline.file)}\`: ${baseline.matched} rows matched` +
            `${baseline.onlyInBaseline.length > 0 ? `, ${baseline.onlyInBaseline.length} only in the baseline` : ""}${baseline.onlyInCurrent.length > 0 ? `, ${baseline.onlyInCurrent.length} only in this run` : ""}.`);
        if (worst.length > 0) {
            lines.push("", "| Worst regressions | Baseline → this run | Rows regressed / improved | Holm-adjusted |", "|---|---|---|---|");
            for (const test of worst)
                lines.push(`| ${md(test.title)} | ${formatMetric(test.baselineValue)} → ${formatMetric(test.currentValue)} | ${test.regressed} / ${test.improved} | ${formatPValue(test.adjusted)}${test.significant ? " (regressed)" : ""} |`);
        }
    }
    return `${lines.join("\n")}\n`;
}
