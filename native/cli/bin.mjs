#!/usr/bin/env node
// The `svc-studio` command: runs the TypeScript CLI through tsx's loader, so no build step is needed. `eval` runs
// experiments, and `import` / `export` convert suites of other tools to and from them; these are the client's (it
// talks to servers like any client), so they are dispatched here rather than from main.ts: the engine's code does
// not import the client.
import {register} from "tsx/esm/api";

register();
if (process.argv[2] === "eval") {
    const {runEval} = await import("../../client/experiments/cli/eval.ts");
    process.exitCode = await runEval(process.argv.slice(3));
} else if (process.argv[2] === "import") {
    const {runImport} = await import("../../client/experiments/import/cli/importCli.ts");
    process.exitCode = await runImport(process.argv.slice(3));
} else if (process.argv[2] === "export") {
    const {runExport} = await import("../../client/experiments/import/cli/exportCli.ts");
    process.exitCode = await runExport(process.argv.slice(3));
} else await import("./main.ts");
