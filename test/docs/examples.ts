// The documentation's examples that talk to a server, found in its code blocks and run as a reader would run them
// against a real one: curl commands (bash), programs with the official openai client (node), and `npm run score`
// command lines. Each example is written for http://127.0.0.1:8080; the test server's address is put in its place.
import {execFile} from "node:child_process";
import {existsSync} from "node:fs";
import {mkdtemp, readFile, rm, symlink, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {pathToFileURL} from "node:url";
import {promisify} from "node:util";
import {repoRoot} from "../ui/utils/startProcess.ts";
import type {CodeBlock} from "./markdown.ts";

const run = promisify(execFile);

/** The address every example is written for. */
export const documentedBaseUrl = "http://127.0.0.1:8080";

export type Example = CodeBlock & {kind: "curl" | "openai" | "score"};

/** One HTTP exchange an example made: what it asked for and what it got. */
export type Exchange = {url: string, status: number, body: string};

/** The blocks that run against a server: shell blocks with curl to the documented address, JS with the openai client, score lines. */
export function serverExamples(blocks: CodeBlock[]): Example[] {
    return blocks.flatMap((block): Example[] => {
        if (/\bfrom "openai"/.test(block.code)) return [{...block, kind: "openai"}];
        if (!["sh", "bash", "shell", ""].includes(block.lang)) return [];
        if (/(^|\s)curl\s/m.test(block.code) && block.code.includes(documentedBaseUrl)) return [{...block, kind: "curl"}];
        // A score line with placeholders (`<in.csv>`) is a synopsis, not an example.
        return block.code.split("\n").filter((line) => /^npm run score -- /.test(line) && !line.includes("<"))
            .map((line) => ({...block, code: line, kind: "score" as const}));
    });
}

/**
 * Runs a shell block with curl writing, after each body, a line with the status and the URL it asked for. Examples
 * use plain `curl URL -H ... -d ...`, so the wrapper keeps them as written.
 */
export async function runCurl(code: string, baseUrl: string): Promise<Exchange[]> {
    const wrapper = `curl() { command curl -sS -w '\\n@@status %{http_code} %{url_effective}\\n' "$@"; }\n`;
    const {stdout} = await run("bash", ["-c", `set -euo pipefail\n${wrapper}${code.replaceAll(documentedBaseUrl, baseUrl)}`], {timeout: 120_000, maxBuffer: 16 << 20});
    const exchanges: Exchange[] = [];
    let rest = stdout;
    for (let marker = /\n@@status (\d{3}) (\S+)\n/.exec(rest); marker != null; marker = /\n@@status (\d{3}) (\S+)\n/.exec(rest)) {
        exchanges.push({url: marker[2], status: Number(marker[1]), body: rest.slice(0, marker.index)});
        rest = rest.slice(marker.index + marker[0].length);
    }
    return exchanges;
}

/**
 * Runs a JavaScript example as a module in a scratch folder that sees the repository's packages, with `fetch` wrapped
 * (recordFetch.mjs) so that every exchange the openai client makes is recorded.
 */
export async function runOpenAi(code: string, baseUrl: string): Promise<{exchanges: Exchange[], output: string}> {
    const dir = await mkdtemp(path.join(os.tmpdir(), "svc-docs-example-"));
    try {
        await symlink(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
        await writeFile(path.join(dir, "example.mjs"), code.replaceAll(documentedBaseUrl, baseUrl));
        const log = path.join(dir, "exchanges.jsonl");
        const recorder = pathToFileURL(path.join(repoRoot, "test/docs/recordFetch.mjs")).href;
        const {stdout} = await run(process.execPath, ["--import", recorder, "example.mjs"], {cwd: dir, env: {...process.env, DOCS_FETCH_LOG: log}, timeout: 120_000});
        const lines = existsSync(log) ? (await readFile(log, "utf8")).split("\n").filter((line) => line !== "") : [];
        return {exchanges: lines.map((line) => JSON.parse(line) as Exchange), output: stdout};
    } finally {
        await rm(dir, {recursive: true, force: true});
    }
}

/** Splits a command line into words as a shell would for plain words and single- or double-quoted ones. */
export function shellWords(line: string): string[] {
    return [...line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]);
}

/**
 * Runs a documented `npm run score -- ...` line as the npm script does (from the repository's root), against
 * `baseUrl`, with its `--out` file (and so its job database) moved to a scratch folder. Returns what it printed.
 */
export async function runScore(line: string, baseUrl: string): Promise<{output: string, outFile: string}> {
    const words = shellWords(line).slice(4);
    const dir = await mkdtemp(path.join(os.tmpdir(), "svc-docs-score-"));
    const args: string[] = [];
    let outFile = "";
    for (let index = 0; index < words.length; index++) {
        if (words[index] === "--base-url") index++;
        else if (words[index] === "--out") {
            outFile = path.join(dir, path.basename(words[++index]));
            args.push("--out", outFile);
        } else args.push(words[index]);
    }
    // The response cache goes under the example's folder, not the user's cache folder.
    const {stdout, stderr} = await run(process.execPath, ["--import", "tsx", "client/scoring/cli/score.ts", ...args, "--base-url", baseUrl],
        {cwd: repoRoot, timeout: 180_000, env: {...process.env, XDG_CACHE_HOME: dir}});
    return {output: `${stdout}${stderr}`, outFile};
}

/** What is wrong with an exchange's status and shape, by the endpoint it called; empty when nothing is. */
export function shapeProblems(exchange: Exchange): string[] {
    const {pathname} = new URL(exchange.url);
    if (exchange.status !== 200) return [`${pathname}: status ${exchange.status}: ${exchange.body.slice(0, 300)}`];
    const events = /^(data|event):/.test(exchange.body.trimStart()) ? sseData(exchange.body) : undefined;
    const body = events == null ? parseJson(exchange.body) : undefined;
    const problems: string[] = [];
    const expect = (condition: boolean, what: string) => {
        if (!condition) problems.push(`${pathname}: ${what} in ${exchange.body.slice(0, 300)}`);
    };
    if (pathname === "/health") expect(body?.status === "ok", "status ok");
    else if (pathname === "/metrics") expect(exchange.body.includes("svc_http_requests_total"), "the request counter");
    else if (/\/v1\/models$/.test(pathname)) expect(body?.object === "list" && Array.isArray(body.data) && body.data.length > 0, "a list of models");
    else if (/\/v1\/models\/[^/]+$/.test(pathname)) expect(body?.object === "model", "a model object");
    else if (pathname.endsWith("/chat/completions")) {
        if (events != null) expect(events.at(-1) === "[DONE]" && events.slice(0, -1).every((event) => parseJson(event)?.object === "chat.completion.chunk"), "chunks, then [DONE]");
        else expect(body?.object === "chat.completion" && typeof body.choices?.[0]?.message?.content === "string" && typeof body.usage?.total_tokens === "number", "a chat completion with usage");
    } else if (pathname.endsWith("/responses")) {
        if (events != null) expect(events.some((event) => parseJson(event)?.type === "response.completed"), "a response.completed event");
        else expect(body?.object === "response" && Array.isArray(body.output) && typeof body.usage?.total_tokens === "number", "a response with output and usage");
    } else if (pathname.endsWith("/completions")) {
        expect(body?.object === "text_completion" && typeof body.choices?.[0]?.text === "string" && typeof body.usage?.total_tokens === "number", "a text completion with usage");
    } else if (pathname.endsWith("/v1/decisions")) {
        expect(Array.isArray(body?.answers) && body.answers.length > 0 && body.answers.every((answer: any) =>
            typeof answer.probability === "number" || Array.isArray(answer.probabilities)) && typeof body.usage?.input_tokens === "number", "answers with probabilities and usage");
    } else if (pathname.endsWith("/v1/systemone")) {
        expect(body?.answers != null && typeof body.answers === "object" && Object.keys(body.answers).length > 0 && typeof body.usage?.input_tokens === "number", "answers keyed by name and usage");
    } else problems.push(`${pathname}: no shape is known for this endpoint: add it to shapeProblems`);
    return problems;
}

function parseJson(text: string): any {
    try {
        return JSON.parse(text);
    } catch {
        return undefined;
    }
}

/** The `data:` payloads of an event stream, in order. */
function sseData(text: string): string[] {
    return text.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim());
}
