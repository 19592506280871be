import {Ajv, type ValidateFunction} from "ajv";
import {RE2JS} from "re2js";
import {linearRegExp, toRe2Syntax} from "../../protocol/linearRegExp.ts";
import {modelIds} from "../../protocol/limits.ts";
import type {DecisionsAnswer, DecisionsRequest} from "../../protocol/decisions/types.ts";
import {cellText, compileTemplate, templateVariables, TemplateError} from "../scoring/requests.ts";
import type {SheetRow} from "../scoring/types.ts";
import type {CallContext} from "../scoring/TaskRunner.ts";
import type {Check, CheckResult, ConnectionRef} from "./types.ts";
import {VariableError} from "./variables.ts";
import {containsJson, expectedList, toolCallProblem} from "./replyMatchers.ts";
import {calibratedGraderScore, graderDetail, graderQuestion, graderScore, graderShapeProblem} from "./graderQuestions.ts";

// The checks a chat variant's reply goes through on every row. Regular expressions (a regex check, a schema's
// `pattern`) run on RE2 (re2js), in time linear in the reply, so no pattern can stall a run; schemas on ajv.

/** The variable a grader's template writes the reply into. */
export const replyVariable = "reply";

/** A check's name, as results and metrics (`pass:<name>`, `score:<name>`) call it: a grader's own, else from its kind and column. */
export function checkName(check: Check): string {
    switch (check.kind) {
        case "grader":
        case "weighted": return check.name;
        case "equals":
        case "contains":
        case "starts_with":
        case "contains_any":
        case "contains_all": return `${check.kind}_${check.column}`;
        default: return check.kind;
    }
}

/** Check names made unique in order: a second `regex` becomes `regex_2`. */
export function checkNames(checks: readonly Check[]): string[] {
    const taken = new Map<string, number>();
    return checks.map((check) => {
        const base = checkName(check);
        const count = (taken.get(base) ?? 0) + 1;
        taken.set(base, count);
        return count === 1 ? base : `${base}_${count}`;
    });
}

/** Asks a grader's question: the /v1/decisions call on the check's connection (else the variant's); its one answer. */
export type GradeCall = (body: DecisionsRequest, connection: ConnectionRef | undefined, context: CallContext) => Promise<DecisionsAnswer>;

/** The request as sent and the whole response, for checks that read more than the reply's text (tool calls). */
export type Exchange = {request: Record<string, unknown>, response: Record<string, unknown>};

export type CompiledChecks = {
    names: string[],
    /** The reply's results, one per check in order; a grader asks its question through `grade`. */
    run(reply: string, row: SheetRow, grade: GradeCall, context: CallContext, exchange?: Exchange): Promise<CheckResult[]>
};

/** A check that cannot run on this dataset; `path` is its place in the experiment file (`checks[2].column`). */
export class CheckError extends VariableError {}

/** One check's outcome on a row; `applies` false: its `when` column is blank there, so it was not run. */
type Outcome = {pass: boolean, score: number, detail?: string, applies?: false, rawScore?: number};

type RunOne = (reply: string, row: SheetRow, grade: GradeCall, context: CallContext, exchange: Exchange | undefined) => Promise<Outcome>;

/**
 * Compiles the checks against the dataset's columns: a column that does not exist, a regular expression RE2
 * cannot run, a schema ajv refuses or a grader template without `{{reply}}` throws a CheckError now, before
 * anything is sent.
 */
export function compileChecks(checks: readonly Check[], columns: readonly string[], prefix = "checks"): CompiledChecks {
    const names = checkNames(checks);
    const runs = checks.map((check, index) => compileCheck(check, columns, `${prefix}[${index}]`));
    return {
        names,
        async run(reply, row, grade, context, exchange) {
            const results: CheckResult[] = [];
            for (let index = 0; index < runs.length; index++) {
                const {applies: _applies, ...outcome} = await runs[index](reply, row, grade, context, exchange);
                results.push({name: names[index], ...outcome});
            }
            return results;
        }
    };
}

/** Every check's problem (not only the first), each a CheckError naming its field; empty when all compile. */
export function checkProblems(checks: readonly Check[], columns: readonly string[], prefix = "checks"): CheckError[] {
    return checks.flatMap((check, index) => {
        try {
            compileCheck(check, columns, `${prefix}[${index}]`);
            return [];
        } catch (error) {
            if (error instanceof CheckError) return [error];
            throw error;
        }
    });
}

/** A column's index, or a CheckError at `path` naming the columns there are. */
function columnIndex(columns: readonly string[], column: string, path: string): number {
    const index = columns.indexOf(column);
    if (index < 0) throw new CheckError(path, `no column named ${JSON.stringify(column)}; columns: ${columns.map((name) => JSON.stringify(name)).join(", ")}`);
    return index;
}

/** A check with its scope: negated when asked, and not run (passing) on rows whose `when` column is blank. */
function compileCheck(check: Check, columns: readonly string[], path: string): RunOne {
    if (check.negate === true && (check.kind === "grader" || check.kind === "weighted"))
        throw new CheckError(`${path}.negate`, `a ${check.kind} check cannot be negated: ask the question the other way round`);
    const run = compileKind(check, columns, path);
    const negated: RunOne = check.negate !== true ? run : async (...args) => {
        const outcome = await run(...args);
        return {pass: !outcome.pass, score: 1 - outcome.score, detail: `not: ${outcome.detail ?? (outcome.pass ? "it passed" : "it failed")}`};
    };
    if (check.when === undefined) return negated;
    const gate = columnIndex(columns, check.when, `${path}.when`);
    return async (reply, row, ...rest) => cellText(row[gate]).trim() === ""
        ? {pass: true, score: 1, detail: "not asserted on this row", applies: false}
        : negated(reply, row, ...rest);
}

function compileKind(check: Check, columns: readonly string[], path: string): RunOne {
    const columnOf = (column: string) => columnIndex(columns, column, `${path}.column`);
    const verdict = (pass: boolean, detail?: string) => ({pass, score: pass ? 1 : 0, ...(detail === undefined ? {} : {detail})});
    switch (check.kind) {
        case "equals":
        case "contains":
        case "starts_with": {
            const column = columnOf(check.column);
            const fold = check.caseSensitive === true ? (text: string) => text : (text: string) => text.toLowerCase();
            const kind = check.kind;
            return async (reply, row) => {
                const expected = fold(cellText(row[column]).trim());
                const got = fold(reply.trim());
                const pass = kind === "equals" ? got === expected : kind === "contains" ? got.includes(expected) : got.startsWith(expected);
                return verdict(pass, `expected ${JSON.stringify(cellText(row[column]))}`);
            };
        }
        case "contains_any":
        case "contains_all": {
            const column = columnOf(check.column);
            const fold = check.caseSensitive === true ? (text: string) => text : (text: string) => text.toLowerCase();
            const any = check.kind === "contains_any";
            return async (reply, row) => {
                const expected = expectedList(row[column]);
                const got = fold(reply);
                const found = expected.filter((item) => got.includes(fold(item)));
                const pass = any ? found.length > 0 : found.length === expected.length;
                return verdict(pass, any ? `expected any of ${JSON.stringify(expected)}` : `missing ${JSON.stringify(expected.filter((item) => !found.includes(item)))}`);
            };
        }
        case "contains_json":
            return async (reply) => verdict(containsJson(reply), undefined);
        case "tool_calls":
            return async (_reply, _row, _grade, _context, exchange) => {
                const problem = exchange === undefined ? "no response to read tool calls from" : toolCallProblem(exchange.request, exchange.response);
                return verdict(problem === null, problem ?? undefined);
            };
        case "weighted":
            return compileWeighted(check, columns, path);
        case "regex": {
            let compiled: RE2JS;
            try {
                compiled = RE2JS.compile(toRe2Syntax(check.pattern), regexFlags(check.flags ?? "", `${path}.flags`));
            } catch (error) {
                if (error instanceof CheckError) throw error;
                throw new CheckError(`${path}.pattern`, `RE2 cannot run ${JSON.stringify(check.pattern)} (no backreferences or lookaround): ${error instanceof Error ? error.message : String(error)}`);
            }
            return async (reply) => verdict(compiled.test(reply));
        }
        case "is_json":
            return async (reply) => {
                const parsed = parseJson(reply);
                return verdict(parsed.ok, parsed.ok ? undefined : parsed.message);
            };
        case "json_schema": {
            let validate: ValidateFunction;
            try {
                validate = new Ajv({strict: false, allErrors: true, validateFormats: false, code: {regExp: linearRegExp}}).compile(check.schema);
            } catch (error) {
                throw new CheckError(`${path}.schema`, error instanceof Error ? error.message : String(error));
            }
            return async (reply) => {
                const parsed = parseJson(reply);
                if (!parsed.ok) return verdict(false, parsed.message);
                const pass = validate(parsed.value);
                return verdict(pass, pass ? undefined : new Ajv().errorsText(validate.errors, {dataVar: "reply"}));
            };
        }
        case "grader": {
            if (!templateVariables(check.template).includes(replyVariable))
                throw new CheckError(`${path}.template`, `a grader's template must hold {{${replyVariable}}} (where the reply goes), or the grader never sees the reply`);
            let render: (row: SheetRow) => string;
            try {
                render = compileTemplate(check.template, [...columns, replyVariable]);
            } catch (error) {
                if (error instanceof TemplateError) throw new CheckError(`${path}.template`, error.message.replace(/^template: /, ""));
                throw error;
            }
            const shape = graderShapeProblem(check);
            if (shape !== null) throw new CheckError(`${path}.${shape.field}`, shape.message);
            // The people's verdicts are read by the summary, not here; a column that is not there is said before anything is sent.
            if (check.humanLabelColumn !== undefined) columnIndex(columns, check.humanLabelColumn, `${path}.humanLabelColumn`);
            const threshold = check.threshold ?? 0.5;
            const questions: DecisionsRequest["questions"] = [graderQuestion(check)];
            return async (reply, row, grade, context) => {
                const input = render([...row, reply]);
                const raw = graderScore(check, await grade({model: modelIds.decision, input, questions}, check.connection, context));
                const score = calibratedGraderScore(check, raw);
                const described = graderDetail(check, raw);
                const detail = check.calibration === undefined ? described : `${described === undefined ? `P(yes) = ${raw.toFixed(3)}` : described}, calibrated ${score.toFixed(3)}`;
                return {pass: score >= threshold, score, ...(check.calibration === undefined ? {} : {rawScore: raw}), ...(detail === undefined ? {} : {detail})};
            };
        }
    }
}

/** The parts' weighted mean score over those that apply to the row, passing at the threshold. */
function compileWeighted(check: Extract<Check, {kind: "weighted"}>, columns: readonly string[], path: string): RunOne {
    if (check.parts.length === 0) throw new CheckError(`${path}.parts`, "needs at least one part");
    const parts = check.parts.map((part, index) => ({weight: part.weight, run: compileCheck(part.check, columns, `${path}.parts[${index}].check`)}));
    return async (...args) => {
        let total = 0, weights = 0;
        const failed: string[] = [];
        for (const [index, part] of parts.entries()) {
            const outcome = await part.run(...args);
            if (outcome.applies === false) continue;
            total += part.weight * outcome.score;
            weights += part.weight;
            if (!outcome.pass) failed.push(`parts[${index}]`);
        }
        if (weights === 0) return {pass: true, score: 1, detail: "no part applies to this row"};
        const score = total / weights;
        return {pass: score >= check.threshold, score, detail: `weighted score ${score.toFixed(3)} against ${check.threshold}${failed.length > 0 ? `; failed: ${failed.join(", ")}` : ""}`};
    };
}

function regexFlags(flags: string, path: string): number {
    let value = 0;
    for (const flag of flags) {
        if (flag === "i") value |= RE2JS.CASE_INSENSITIVE;
        else if (flag === "m") value |= RE2JS.MULTILINE;
        else if (flag === "s") value |= RE2JS.DOTALL;
        else throw new CheckError(path, `unknown flag ${JSON.stringify(flag)} (known: i, m, s)`);
    }
    return value;
}

/** The reply as JSON: the whole reply, spaces around it aside (a reply wrapped in prose or a code fence is not JSON). */
function parseJson(reply: string): {ok: true, value: unknown} | {ok: false, message: string} {
    try {
        return {ok: true, value: JSON.parse(reply.trim())};
    } catch (error) {
        return {ok: false, message: `not JSON: ${error instanceof Error ? error.message : String(error)}`};
    }
}
