// What keeps README.md and docs/ true: the CLI reference against every command's real --help, both ways; every relative
// link, anchor and image; the examples that talk to a server, run against a real one on the built-in model; and no
// diary in the documentation (dates of measurement, sessions, work-item numbers).
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readdirSync, statSync} from "node:fs";
import {mkdtemp, readFile, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {spawnServer} from "../support/spawnServer.ts";
import {adminCommands, adminCommandsIn, commandLines, flagsIn, helpCommands, helpText, packageScripts, scriptCommands, scriptModules, topLevelCommands, topLevelHelp} from "./cliHelp.ts";
import {runCurl, runOpenAi, runScore, serverExamples, shapeProblems, type Exchange} from "./examples.ts";
import {codeBlocks, docsDir, documentationFiles, headingAnchors, inlineCode, linksIn, readMarkdown, sections} from "./markdown.ts";

const files = documentationFiles();
const cliReference = readMarkdown(path.join(docsDir, "cli.md"));
const difference = (a: Set<string>, b: Set<string>) => [...a].filter((item) => !b.has(item)).sort();

describe("the CLI reference matches every command's --help", () => {
    const helps = new Map<string, string>();
    before(async () => {
        for (const [command, args] of Object.entries(helpCommands)) helps.set(command, await helpText(args));
        helps.set("svc-studio", await topLevelHelp());
    });

    test("the npm scripts run the modules whose --help is read", () => {
        const scripts = packageScripts();
        for (const [script, module] of Object.entries(scriptModules))
            assert.ok(scripts[script]?.endsWith(module), `package.json script ${script} is ${JSON.stringify(scripts[script])}, not ...${module}`);
    });

    test("docs/cli.md has a section for every command svc-studio --help lists, and every section is a command", () => {
        const {sections: found} = sections(cliReference);
        const headings = new Set(found.map((section) => section.heading));
        const listed = [...topLevelCommands(helps.get("svc-studio")!)].map((command) => `svc-studio ${command}`);
        assert.deepEqual(listed.filter((command) => !headings.has(command)), [], "commands without a section in docs/cli.md");
        for (const section of found.filter((item) => helpCommands[item.heading] == null))
            assert.deepEqual([...flagsIn(section.body)], [], `docs/cli.md "${section.heading}" is not a command but names flags`);
        assert.deepEqual([...flagsIn(sections(cliReference).preamble)], [], "docs/cli.md's introduction names flags of no command");
    });

    for (const command of Object.keys(helpCommands)) {
        test(`${command}: every flag of its --help is in docs/cli.md, and every flag there is in its --help`, () => {
            const section = sections(cliReference).sections.find((item) => item.heading === command);
            assert.ok(section != null, `docs/cli.md has no "## ${command}" section`);
            const documented = flagsIn(section.body);
            const real = flagsIn(helps.get(command)!);
            assert.deepEqual({missingFromDocs: difference(real, documented), notInHelp: difference(documented, real)}, {missingFromDocs: [], notInHelp: []},
                `docs/cli.md's ${command} section against \`${command} --help\``);
        });
    }

    test("svc-studio admin: every command of its --help is in docs/cli.md, and every one there is in its --help", () => {
        const real = adminCommands(helps.get("svc-studio admin")!);
        const section = sections(cliReference).sections.find((item) => item.heading === "svc-studio admin")!;
        const documented = new Set(adminCommandsIn(section.body, real));
        assert.deepEqual({missingFromDocs: difference(real, documented), notInHelp: difference(documented, real)}, {missingFromDocs: [], notInHelp: []},
            "docs/cli.md's admin commands against `svc-studio admin --help`");
    });

    test("every command line in README.md and docs/ names a real command, script and flags", () => {
        const scripts = packageScripts();
        const commands = topLevelCommands(helps.get("svc-studio")!);
        const admin = adminCommands(helps.get("svc-studio admin")!);
        const problems: string[] = [];
        for (const file of files) {
            for (const code of [...codeBlocks(file).map((block) => block.code), ...inlineCode(file)])
                for (const {command, line} of commandLines(code)) {
                    const [runner, name] = command.split(" ").slice(-2);
                    if (runner === "svc-studio" && !commands.has(name)) problems.push(`${file.name}: \`${command}\` is no command of svc-studio`);
                    if (command.startsWith("npm run ") && scripts[name] == null) problems.push(`${file.name}: \`${command}\` is no npm script`);
                    const section = command.startsWith("npm run ") ? scriptCommands[name] : command;
                    const help = section != null ? helps.get(section) : undefined;
                    if (help != null)
                        for (const flag of flagsIn(line)) if (!flagsIn(help).has(flag)) problems.push(`${file.name}: \`${command}\` has no ${flag}`);
                    if (section === "svc-studio admin")
                        for (const found of adminCommandsIn(`admin ${line.trim()}`, admin)) if (!admin.has(found)) problems.push(`${file.name}: no admin command ${found}`);
                }
        }
        assert.deepEqual(problems, []);
    });
});

describe("links and images", () => {
    test("every relative link, anchor and image path in README.md and docs/ resolves", () => {
        const problems: string[] = [];
        for (const file of files)
            for (const {target, line} of linksIn(file)) {
                if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
                const [filePart, anchor] = target.split("#", 2);
                const resolved = filePart === "" ? file.path : path.resolve(path.dirname(file.path), decodeURI(filePart));
                if (!existsSync(resolved)) {
                    problems.push(`${file.name}:${line}: ${target} does not exist`);
                    continue;
                }
                if (anchor != null && resolved.endsWith(".md") && !headingAnchors(readMarkdown(resolved).text).has(anchor))
                    problems.push(`${file.name}:${line}: ${target}: no heading has the anchor #${anchor}`);
            }
        assert.deepEqual(problems, []);
    });

    test("every picture in docs/images is shown somewhere and stays small", () => {
        const shown = new Set(files.flatMap((file) => linksIn(file).map(({target}) => path.resolve(path.dirname(file.path), target.split("#")[0]))));
        for (const name of readdirSync(path.join(docsDir, "images"))) {
            const image = path.join(docsDir, "images", name);
            assert.ok(shown.has(image), `docs/images/${name} is shown on no page`);
            assert.ok(statSync(image).size < 300_000, `docs/images/${name} is ${statSync(image).size} bytes`);
        }
    });
});

describe("the examples that talk to a server, against the built-in model", {timeout: 600_000}, () => {
    let server: {url: string, close(): Promise<void>};
    let scratch: string;
    before(async () => {
        scratch = await mkdtemp(path.join(os.tmpdir(), "svc-docs-server-"));
        // An empty library: the built-in stories260K is served, as on a fresh clone.
        server = await spawnServer(["--models-dir", path.join(scratch, "models"), "--data-dir", path.join(scratch, "data"), "--threads", "1", "--gpu", "off"]);
    });
    after(async () => {
        await server?.close();
        await rm(scratch, {recursive: true, force: true});
    });

    const examples = files.flatMap((file) => serverExamples(codeBlocks(file)));
    test("the documentation has curl, openai client and scoring examples", () => {
        for (const kind of ["curl", "openai", "score"]) assert.ok(examples.some((example) => example.kind === kind), `no ${kind} example found`);
    });

    for (const example of examples) {
        test(`${example.file}:${example.line} (${example.kind}) answers 200 in the documented shape`, async () => {
            if (example.kind === "score") {
                const {output, outFile} = await runScore(example.code, server.url);
                const done = /scored (\d+) rows \((\d+) this run, 0 with errors\)/.exec(output);
                assert.ok(done != null && Number(done[1]) > 0, output);
                assert.match((await readFile(outFile, "utf8")).split("\n")[0], /\.(probability|choice|score)\b/, "answer columns in the output");
                return;
            }
            let exchanges: Exchange[];
            if (example.kind === "curl") exchanges = await runCurl(example.code, server.url);
            else {
                const result = await runOpenAi(example.code, server.url);
                assert.ok(result.output.trim() !== "", "the example printed what it got");
                exchanges = result.exchanges;
            }
            assert.ok(exchanges.length > 0, "the example made no request");
            assert.deepEqual(exchanges.flatMap(shapeProblems), []);
        });
    }
});

describe("the documentation speaks of the product, not of its history", () => {
    const diary: Array<[RegExp, string]> = [
        [/\bsessions? \d+/i, "a session number"],
        [/\bthis session\b/i, "\"this session\""],
        [/\b(issue|finding|work item|ticket)s? #?\d+/i, "a work-item number"],
        [/(^|[\s(])#\d+\b/, "a work-item number"],
        [/\bmeasured (on|in) (\d{4}-\d{2}-\d{2}|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d)/i, "a date of measurement"],
        [/^#{1,6} .*\b(\d{4}-\d{2}-\d{2}|\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4})\b/im, "a dated heading"]
    ];
    for (const file of files) {
        test(`${file.name} has no session, work item or measurement date`, () => {
            const found = file.text.split("\n").flatMap((line, index) =>
                diary.filter(([pattern]) => pattern.test(line)).map(([, what]) => `${file.name}:${index + 1}: ${what}: ${line.trim()}`));
            assert.deepEqual(found, []);
        });
    }
});
