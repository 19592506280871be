import type {CellValue} from "../../../scoring/types.ts";
import type {Check} from "../../types.ts";
import type {ImportReport} from "../importProblems.ts";
import {nunjucksProblem, renderPlain} from "./promptfooPrompts.ts";
import type {ImportedTest, RawAssertion} from "./promptfooTests.ts";

// promptfoo's assertions as an experiment's checks, which run on every row: each assertion's value per test goes
// into a column of its own, and a check asserted by some tests only runs where its column is given (`when`). So
// `contains: Paris` in one test and `contains: Rome` in another are one contains check over a `contains` column.
// `not-` forms are negated checks, `llm-rubric` a decision-question grader, a test `threshold` one weighted check
// over the rest (each assertion's `weight`, default 1). What has no counterpart is reported, never dropped silently.

/** The assertion column's values, by test (null where the test does not assert it). */
export type AssertionColumn = {name: string, cells: CellValue[]};

export type ImportedChecks = {checks: Check[], columns: AssertionColumn[]};

type Mapping =
    | {shape: "column", kind: "equals" | "contains" | "starts_with" | "contains_any" | "contains_all", caseSensitive: boolean}
    | {shape: "fixed", make: (value: unknown) => Check | string}
    | {shape: "grader"};

const mappings: Record<string, Mapping> = {
    "equals": {shape: "column", kind: "equals", caseSensitive: true},
    "contains": {shape: "column", kind: "contains", caseSensitive: true},
    "icontains": {shape: "column", kind: "contains", caseSensitive: false},
    "starts-with": {shape: "column", kind: "starts_with", caseSensitive: true},
    "contains-any": {shape: "column", kind: "contains_any", caseSensitive: true},
    "icontains-any": {shape: "column", kind: "contains_any", caseSensitive: false},
    "contains-all": {shape: "column", kind: "contains_all", caseSensitive: true},
    "icontains-all": {shape: "column", kind: "contains_all", caseSensitive: false},
    "regex": {shape: "fixed", make: (value) => typeof value === "string" ? {kind: "regex", pattern: value} : "needs a pattern as its value"},
    "is-json": {shape: "fixed", make: (value) => value === undefined ? {kind: "is_json"} : isSchema(value) ? {kind: "json_schema", schema: value} : "its value must be a JSON schema object"},
    "contains-json": {shape: "fixed", make: (value) => value === undefined ? {kind: "contains_json"} : "a schema for contains-json is not imported (is-json with a schema checks a whole-JSON reply)"},
    "is-valid-openai-tools-call": {shape: "fixed", make: (value) => value === undefined ? {kind: "tool_calls"} : "a value for is-valid-openai-tools-call is not imported"},
    "llm-rubric": {shape: "grader"}
};

function isSchema(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** An assertion's value as one cell: text rendered with the test's variables; a list of strings as JSON. */
function cellOf(value: unknown, vars: Record<string, unknown>): string {
    if (typeof value === "string") return renderPlain(value, vars);
    if (Array.isArray(value)) return JSON.stringify(value.map((item) => typeof item === "string" ? renderPlain(item, vars) : String(item)));
    return value === undefined || value === null ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
}

type Group = {key: string, type: string, negate: boolean, weight: number, threshold?: number, mapping: Mapping, fixed?: Check, cells: CellValue[], present: number};

/** The checks and assertion columns of `tests`, whose variables hold `taken` column names. */
export function importAssertions(tests: readonly ImportedTest[], taken: readonly string[], report: ImportReport): ImportedChecks {
    const groups = new Map<string, Group>();
    const order: Group[] = [];
    tests.forEach((test, row) => {
        const seen = new Map<string, number>();
        for (const assertion of test.asserts) {
            const group = groupOf(assertion, test.vars, report);
            if (group === null) continue;
            // The second `contains` of one test is a check of its own, over a column of its own.
            const occurrence = (seen.get(group.key) ?? 0) + 1;
            seen.set(group.key, occurrence);
            const key = `${group.key}#${occurrence}`;
            let found = groups.get(key);
            if (found === undefined) {
                found = {...group, key, cells: new Array<CellValue>(tests.length).fill(null), present: 0};
                groups.set(key, found);
                order.push(found);
            }
            found.cells[row] = group.cell;
            found.present++;
        }
    });
    const names = new Set(taken);
    const columns: AssertionColumn[] = [];
    const columnFor = (group: Group) => {
        let name = group.type;
        for (let count = 2; names.has(name); count++) name = `${group.type}_${count}`;
        names.add(name);
        columns.push({name, cells: group.cells});
        return name;
    };
    let graders = 0;
    const parts = order.map((group) => {
        const everyRow = group.present === tests.length;
        let check: Check;
        if (group.mapping.shape === "column") {
            const column = columnFor(group);
            check = {kind: group.mapping.kind, column, caseSensitive: group.mapping.caseSensitive, ...(everyRow ? {} : {when: column})};
        } else if (group.mapping.shape === "fixed") {
            check = {...group.fixed!, ...(everyRow ? {} : {when: columnFor(group)})};
        } else {
            const rubrics = new Set(group.cells.filter((cell) => cell !== null));
            const single = rubrics.size === 1 && !String([...rubrics][0]).includes("{{");
            const column = single && everyRow ? null : columnFor(group);
            const rubric = column === null ? String([...rubrics][0]) : `{{${column}}}`;
            graders++;
            check = {
                kind: "grader", name: graders === 1 ? "llm-rubric" : `llm-rubric_${graders}`,
                question: "Does the output meet the rubric?", template: `Rubric: ${rubric}\n\nOutput:\n{{reply}}`,
                ...(group.threshold === undefined ? {} : {threshold: Math.min(1, group.threshold)}),
                ...(column === null || everyRow ? {} : {when: column})
            };
        }
        if (group.negate) check.negate = true;
        return {weight: group.weight, check};
    });
    return {checks: withThreshold(tests, parts, report), columns};
}

/** An assertion's group (its type, negation, weight, threshold and, for fixed checks, value) and its cell. */
function groupOf(assertion: RawAssertion, vars: Record<string, unknown>, report: ImportReport): (Omit<Group, "cells" | "present"> & {cell: CellValue}) | null {
    const negate = assertion.type.startsWith("not-");
    const type = negate ? assertion.type.slice(4) : assertion.type;
    const mapping = mappings[type];
    if (mapping === undefined) {
        const why = type === "javascript" || type === "python" || type === "ruby"
            ? `${assertion.type}: code assertions are not imported (not run in a sandbox): write the rule as a check, or as a grader's question`
            : `${assertion.type} has no check in an experiment`;
        report.notImported(assertion.place, why);
        return null;
    }
    if (negate && mapping.shape === "grader") {
        report.notImported(assertion.place, "not-llm-rubric: a grader is not negated; write the rubric the other way round");
        return null;
    }
    const problem = typeof assertion.value === "string" ? nunjucksProblem(assertion.value) : null;
    if (problem !== null) {
        report.notImported(assertion.place, `${assertion.type}: ${problem}`);
        return null;
    }
    const weight = assertion.weight ?? 1;
    const base = {type: assertion.type, negate, weight, mapping};
    if (mapping.shape === "fixed") {
        const made = mapping.make(assertion.value);
        if (typeof made === "string") {
            report.notImported(assertion.place, `${assertion.type}: ${made}`);
            return null;
        }
        return {...base, key: `${assertion.type}\u0000${weight}\u0000${JSON.stringify(assertion.value ?? null)}`, fixed: made, cell: cellOf(assertion.value, vars) || "yes"};
    }
    if (mapping.shape === "grader") {
        const threshold = assertion.threshold;
        return {...base, key: `${assertion.type}\u0000${weight}\u0000${threshold ?? ""}`, ...(threshold === undefined ? {} : {threshold}), cell: cellOf(assertion.value, vars)};
    }
    const value = (mapping.kind === "contains_any" || mapping.kind === "contains_all") && typeof assertion.value === "string" ? commaList(assertion.value) : assertion.value;
    return {...base, key: `${assertion.type}\u0000${weight}`, cell: cellOf(value, vars)};
}

function commaList(text: string): string[] {
    return text.split(",").map((item) => item.trim()).filter((item) => item !== "");
}

/**
 * A test threshold makes the checks one weighted check (promptfoo's aggregate score against the threshold); it must
 * be the same for every test that asserts something. Without one, weights do not change pass or fail.
 */
function withThreshold(tests: readonly ImportedTest[], parts: Array<{weight: number, check: Check}>, report: ImportReport): Check[] {
    const asserting = tests.filter((test) => test.asserts.length > 0);
    const thresholds = new Set(asserting.map((test) => test.threshold));
    const weighted = parts.some((part) => part.weight !== 1);
    if (thresholds.size === 1 && [...thresholds][0] !== undefined && parts.length > 0)
        return [{kind: "weighted", name: "threshold", threshold: Math.min(1, [...thresholds][0]!), parts}];
    if (thresholds.size > 1) {
        const test = asserting.find((item) => item.threshold !== undefined)!;
        report.notImported({...test.place, field: `${test.place.field}${test.place.field === "" ? "" : "."}threshold`}, "the tests' thresholds differ (or some tests have none): an experiment takes one; every check must pass instead");
    }
    if (weighted && thresholds.size <= 1 && [...thresholds][0] === undefined) {
        const place = tests.flatMap((test) => test.asserts).find((assertion) => assertion.weight !== undefined && assertion.weight !== 1)!.place;
        report.notImported({...place, field: `${place.field}.weight`}, "weights without a threshold change promptfoo's aggregate score only, not pass or fail, and an experiment has no aggregate score");
    }
    return parts.map((part) => part.check);
}
