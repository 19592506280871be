// Test-only: `svc-studio eval` run in the test's own process (no start-up cost), with what it prints captured.
import {runEval} from "../../client/experiments/cli/eval.ts";

export type EvalRun = {code: number, stdout: string, stderr: string};

/** runEval(args) with its stdout (the summary) and stderr (progress, gates) captured instead of printed. */
export async function evalHere(args: string[]): Promise<EvalRun> {
    let stdout = "", stderr = "";
    const write = process.stderr.write.bind(process.stderr);
    const log = console.log;
    process.stderr.write = ((chunk: string | Uint8Array) => {
        stderr += String(chunk);
        return true;
    }) as typeof process.stderr.write;
    console.log = (...items: unknown[]) => stdout += `${items.join(" ")}\n`;
    try {
        return {code: await runEval(args), stdout, stderr};
    } finally {
        process.stderr.write = write;
        console.log = log;
    }
}
