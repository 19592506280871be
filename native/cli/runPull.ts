import {parseArgs} from "node:util";
import {catalog} from "../models/catalog.ts";
import {downloadModel} from "../models/download/downloadModel.ts";
import {ModelLibrary} from "../models/ModelLibrary.ts";
import {formatBytes} from "../models/utils/formatBytes.ts";
import {UsageError} from "./parseServeArgs.ts";
import {ProgressPrinter} from "./utils/ProgressPrinter.ts";

export const pullUsage = `usage: npm run pull -- <url | hf:<user>/<repo>/<file.gguf> | catalog id> [options]
  --sha256 <hex>       expected SHA-256; a file that differs is removed
  --models-dir <dir>   model library folder (default: $SVC_STUDIO_MODELS_DIR, else the user data folder)
  --name <file.gguf>   save under this name (default: the URL's file name)
  --default            make it the default model (the first model pulled becomes the default anyway)
An interrupted pull resumes where it stopped when run again. Recommended models:
${catalog.map((model) => `  ${model.id.padEnd(28)} ${model.uri}  (${model.sizeLabel})`).join("\n")}`;

/** `svc-studio pull`: downloads a model into the library with a progress bar; Ctrl-C cancels it. */
export async function runPull(argv: string[]): Promise<void> {
    const {values, positionals} = parseArgs({
        args: argv,
        strict: true,
        allowPositionals: true,
        options: {
            "sha256": {type: "string"},
            "models-dir": {type: "string"},
            "name": {type: "string"},
            "default": {type: "boolean"},
            "help": {type: "boolean", short: "h"}
        }
    });
    if (values.help) return console.log(pullUsage);
    if (positionals.length !== 1) throw new UsageError(`pull needs one source, got ${positionals.length}\n${pullUsage}`);
    const source = catalog.find((model) => model.id === positionals[0])?.uri ?? positionals[0];
    const library = new ModelLibrary(values["models-dir"]);

    const controller = new AbortController();
    const cancel = () => controller.abort();
    process.once("SIGINT", cancel);
    const printer = new ProgressPrinter();
    console.log(`pulling ${source} into ${library.dir}`);
    try {
        const result = await downloadModel({
            source,
            dir: library.dir,
            fileName: values.name,
            sha256: values.sha256,
            signal: controller.signal,
            onProgress: (progress) => printer.update(progress),
            onRetry: ({delayMs, error}) => printer.note(`retrying in ${(delayMs / 1000).toFixed(1)} s: ${error.message}`)
        });
        printer.done();
        if (values.default) await library.setDefault(result.fileName);
        else await library.adopt(result.fileName);
        const listing = await library.list();
        console.log(result.alreadyPresent
            ? `already in the library: ${result.path} (${formatBytes(result.sizeBytes)})`
            : `saved ${result.path} (${formatBytes(result.sizeBytes)}${result.resumed ? ", resumed" : ""})`);
        if (result.sha256 != null) console.log(`sha256 ${result.sha256}`);
        console.log(listing.defaultId === result.fileName
            ? "it is the default model: start it with `npm run serve`"
            : `default model is ${listing.defaultId}; serve this one with \`npm run serve -- --model ${JSON.stringify(result.path)}\` or make it the default: svc-studio models default ${result.fileName}`);
    } finally {
        printer.done();
        process.off("SIGINT", cancel);
    }
}
