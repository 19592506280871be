import {ensureTinyGguf} from "../models/fixture/ensureTinyGguf.ts";
import {ModelFileError} from "../models/checkModelFile.ts";
import {startServer} from "../server/startServer.ts";
import {parseServeArgs, serveUsage, UsageError} from "./parseServeArgs.ts";

const usage = `usage: svc-studio <command>
  serve --model <file.gguf> [options]   serve the svc API on localhost (see: svc-studio serve --help)
  make-fixture [dir]                    write the project's tiny test GGUF and print its path`;

async function serve(argv: string[]) {
    if (argv.includes("--help") || argv.includes("-h")) return console.log(serveUsage);
    const options = parseServeArgs(argv);
    const server = await startServer(options);
    const {info} = server.engine;
    console.log(`model ${info.modelPath} (${info.chatWrapper} template), ${info.gpu === false ? "CPU" : info.gpu}, ` +
        `${info.threads} threads, context ${info.contextSize} x ${info.parallel} sequences`);
    console.log(`listening on ${server.url}`);

    let stopping = false;
    const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        console.log(`${signal}: shutting down`);
        await server.close();
        process.exit(0);
    };
    process.on("SIGINT", () => void stop("SIGINT"));
    process.on("SIGTERM", () => void stop("SIGTERM"));
}

async function main(argv: string[]) {
    const [command, ...rest] = argv;
    if (command === "serve") return serve(rest);
    if (command === "make-fixture") return console.log(await ensureTinyGguf(rest[0]));
    console.error(usage);
    process.exit(command == null || command === "--help" ? 0 : 2);
}

main(process.argv.slice(2)).catch((error) => {
    // Expected faults (a bad flag, a bad model file) are one clear line; anything else keeps its stack.
    if (error instanceof UsageError || error instanceof ModelFileError || (error as NodeJS.ErrnoException).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION")
        console.error(`svc-studio: ${(error as Error).message}`);
    else if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
        console.error(`svc-studio: the address is already in use: ${(error as Error).message}`);
    else console.error(error);
    process.exit(1);
});
