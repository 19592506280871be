import {spawn} from "node:child_process";

/**
 * Runs a build step (cmake, git, node-llama-cpp's CLI) to its end, logging the command line and not its output: on a
 * non-zero exit the error carries the output's last 4,000 characters, which is where a compiler says what failed.
 */
export function runCommand(command: string, args: string[], {cwd, env, log}: {cwd: string, env?: NodeJS.ProcessEnv, log: (line: string) => void}): Promise<void> {
    return new Promise((resolve, reject) => {
        log(`$ ${command} ${args.join(" ")}`);
        const child = spawn(command, args, {cwd, env, stdio: ["ignore", "pipe", "pipe"]});
        let tail = "";
        const keep = (chunk: Buffer) => {
            tail = (tail + chunk.toString()).slice(-4000);
        };
        child.stdout.on("data", keep);
        child.stderr.on("data", keep);
        child.on("error", reject);
        child.on("close", (code) => code === 0 ? resolve() : reject(new Error(`${command} ${args.slice(0, 2).join(" ")} exited with ${code}:\n${tail}`)));
    });
}
