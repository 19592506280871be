// The real `--help` of every command the CLI reference (docs/cli.md) documents, and what the docs test reads from it:
// the flags, the top-level commands, and the admin commands.
import {execFile} from "node:child_process";
import {readFileSync} from "node:fs";
import path from "node:path";
import {promisify} from "node:util";
import {repoRoot} from "../ui/utils/startProcess.ts";

const run = promisify(execFile);
const bin = path.join(repoRoot, "native/cli/bin.mjs");

/**
 * The node arguments that print each documented command's usage, keyed by the heading of its section in docs/cli.md.
 * `npm run score` and `npm run web` are run as their npm scripts run them (`scriptModules` checks that), without npm
 * and without `npm run web`'s renderer build.
 */
export const helpCommands: Record<string, string[]> = {
    "svc-studio serve": [bin, "serve", "--help"],
    "svc-studio pull": [bin, "pull", "--help"],
    "svc-studio models": [bin, "models", "--help"],
    "svc-studio gpu": [bin, "gpu", "--help"],
    "svc-studio admin": [bin, "admin", "--help"],
    "svc-studio eval": [bin, "eval", "--help"],
    "svc-studio import": [bin, "import", "--help"],
    "svc-studio export": [bin, "export", "--help"],
    "npm run score": ["--import", "tsx", "client/scoring/cli/score.ts", "--help"],
    "npm run web": ["--import", "tsx", "electron/web.ts", "--help"]
};

/** The npm scripts of the commands above, with the module each must end by running. */
export const scriptModules: Record<string, string> = {
    serve: "tsx native/cli/main.ts serve", pull: "tsx native/cli/main.ts pull", models: "tsx native/cli/main.ts models",
    gpu: "tsx native/cli/main.ts gpu", score: "tsx client/scoring/cli/score.ts", web: "tsx electron/web.ts"
};

/** The npm script behind `npm run <name>` for each command of the CLI reference. */
export const scriptCommands: Record<string, string> = {
    serve: "svc-studio serve", pull: "svc-studio pull", models: "svc-studio models", gpu: "svc-studio gpu",
    score: "npm run score", web: "npm run web"
};

export function packageScripts(): Record<string, string> {
    return (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {scripts: Record<string, string>}).scripts;
}

/** What a command prints for its usage, stdout and stderr together (`svc-studio --help` prints on stderr). */
export async function helpText(args: string[]): Promise<string> {
    const {stdout, stderr} = await run(process.execPath, args, {cwd: repoRoot, timeout: 60_000});
    return `${stdout}${stderr}`;
}

/** The top-level usage: `svc-studio` with `--help`. */
export function topLevelHelp(): Promise<string> {
    return helpText([bin, "--help"]);
}

/** Every `--flag` a text names, `--help` aside (every command has it, and no usage lists it). */
export function flagsIn(text: string): Set<string> {
    return new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((match) => `--${match[1]}`).filter((flag) => flag !== "--help"));
}

/** The commands `svc-studio --help` lists: the first word of each indented line. */
export function topLevelCommands(help: string): Set<string> {
    return new Set([...help.matchAll(/^ {2}([a-z]+) /gm)].map((match) => match[1]));
}

/**
 * The admin commands `svc-studio admin --help` lists, as `noun verb` (or `usage`, which has no verb): the leading words
 * of each indented line and of each alternative after ` | `.
 */
export function adminCommands(help: string): Set<string> {
    const commands = new Set<string>();
    for (const line of help.split("\n").filter((text) => text.startsWith("  ")))
        for (const piece of line.trim().split(" | ")) {
            const words = /^([a-z]+)(?: ([a-z]+))?(?=\s|$)/.exec(piece);
            if (words != null) commands.add(words[2] != null ? `${words[1]} ${words[2]}` : words[1]);
        }
    return commands;
}

/** The admin commands a text names as `admin <noun> [<verb>]`, each as it must appear in adminCommands. */
export function adminCommandsIn(text: string, known: Set<string>): string[] {
    return [...text.matchAll(/\badmin ([a-z]+)(?: ([a-z]+))?/g)].map((match) =>
        match[2] != null && known.has(`${match[1]} ${match[2]}`) ? `${match[1]} ${match[2]}` : known.has(match[1]) ? match[1] : `${match[1]} ${match[2] ?? ""}`.trim());
}

/**
 * Command lines in code blocks (a line joined with its `\` continuations) that run a documented command, with the
 * command's section heading: `svc-studio <command> ...`, and `npm run <script> -- ...` for the scripts above.
 */
export function commandLines(code: string): Array<{command: string, line: string}> {
    const joined = code.replace(/\\\n/g, " ").split("\n");
    const found: Array<{command: string, line: string}> = [];
    for (const line of joined) {
        const direct = /(?:^|[\s$(])svc-studio ([a-z]+)\b(.*)$/.exec(line);
        if (direct != null) {
            found.push({command: `svc-studio ${direct[1]}`, line: direct[2]});
            continue;
        }
        const script = /(?:^|[\s$(])npm run (?:--silent )?([\w:-]+)(.*)$/.exec(line);
        if (script != null) found.push({command: `npm run ${script[1]}`, line: script[2].replace(/#.*$/, "")});
    }
    return found.map(({command, line}) => ({command, line: line.replace(/#.*$/, "")}));
}
