import {parseArgs} from "node:util";
import {detectGpu, formatGpuReport} from "../gpu/detectGpu.ts";
import {catalog} from "../library/catalog.ts";
import {ModelLibrary} from "../library/ModelLibrary.ts";
import {projectorFileName} from "../library/projectors.ts";
import {formatBytes} from "../../base/common/format.ts";
import {UsageError} from "./serveArgs.ts";
import {downloadModel} from "../download/downloadModel.ts";
import {ProgressPrinter} from "./progress.ts";
import type {LibraryListing, LibraryModel} from "../../protocol/gateway/contract.ts";

export const gpuUsage = `usage: svc-studio gpu [--json]     which GPU backends (cuda, vulkan, metal) the engine can use on this machine,
                                 and why not; what \`serve --gpu auto\` will pick
  --json               the report as JSON`;

/** `svc-studio gpu [--json]`: which GPU backend the engine can use, and why not when it cannot. */
export async function runGpu(argv: string[]): Promise<void> {
    const {values} = parseArgs({args: argv, strict: true, options: {"json": {type: "boolean"}, "help": {type: "boolean", short: "h"}}});
    if (values.help) return console.log(gpuUsage);
    const report = await detectGpu();
    console.log(values.json ? JSON.stringify(report, null, 2) : formatGpuReport(report));
}

export const modelsUsage = `usage: svc-studio models [--models-dir <dir>] [--json]     list the model library
       svc-studio models default <file.gguf>                  make it the default model (served by svc-1)
       svc-studio models role <role> <file.gguf | none>       assign svc-1-reasoning or svc-1-decision`;

/** `svc-studio models`: the library listing, and choosing the default model and roles. */
export async function runModels(argv: string[]): Promise<void> {
    const {values, positionals} = parseArgs({
        args: argv,
        strict: true,
        allowPositionals: true,
        options: {"models-dir": {type: "string"}, "json": {type: "boolean"}, "help": {type: "boolean", short: "h"}}
    });
    if (values.help) return console.log(modelsUsage);
    const library = new ModelLibrary(values["models-dir"]);
    const [action, ...rest] = positionals;
    if (action === "default" && rest.length === 1) await library.setDefault(rest[0]);
    else if (action === "role" && rest.length === 2) await library.setRole(rest[0], rest[1] === "none" ? null : rest[1]);
    else if (action != null) throw new UsageError(modelsUsage);

    const listing = await library.list();
    if (values.json) return console.log(JSON.stringify({...listing, catalog}, null, 2));
    console.log(formatListing(listing));
}

function formatListing(listing: LibraryListing): string {
    const lines = [`model library: ${listing.dir} (${listing.models.length} model${listing.models.length === 1 ? "" : "s"})`];
    for (const model of listing.models) lines.push(`${model.isDefault ? "*" : " "} ${describe(model)}`);
    for (const part of listing.partial)
        lines.push(`  ${part.fileName}: partial download, ${formatBytes(part.receivedBytes)} so far (pull it again to resume)`);
    if (listing.models.length > 0) lines.push(`* default model${listing.defaultIsExplicit ? "" : " (none chosen: the first readable one)"}`);
    lines.push("", "recommended (npm run pull -- <uri>):");
    for (const model of catalog) lines.push(`  ${model.uri}  ${model.name}, ${model.sizeLabel}; for ${model.roles.join(", ")}`);
    return lines.join("\n");
}

function describe(model: LibraryModel): string {
    const head = `${model.id}  ${formatBytes(model.sizeBytes)}`;
    if (model.info == null) return `${head}  unreadable: ${model.error}`;
    const {info} = model;
    const traits = [info.hasChatTemplate ? `${info.chatWrapper} chat` : "no chat template", info.canThink ? "thinks" : "", info.canCallTools ? "tools" : ""]
        .filter((trait) => trait !== "");
    return [head, info.architecture, info.parameterLabel, info.quantization, info.contextLength != null ? `ctx ${info.contextLength}` : undefined,
        traits.join(", "), model.roles.length > 0 ? `serves ${model.roles.join(", ")}` : undefined]
        .filter((part) => part != null && part !== "").join("  ");
}

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
    const entry = catalog.find((model) => model.id === positionals[0]);
    const source = entry?.uri ?? positionals[0];
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
        console.log(result.alreadyPresent
            ? `already in the library: ${result.path} (${formatBytes(result.sizeBytes)})`
            : `saved ${result.path} (${formatBytes(result.sizeBytes)}${result.resumed ? ", resumed" : ""})`);
        if (result.sha256 != null) console.log(`sha256 ${result.sha256}`);
        // A catalog vision model comes with its projector, saved under the name that pairs it (library/projectors.ts).
        if (entry?.projector != null) {
            console.log(`pulling its vision projector ${entry.projector.uri}`);
            const projector = await downloadModel({
                source: entry.projector.uri,
                dir: library.dir,
                fileName: projectorFileName(entry.projector.fileName, values.name != null ? result.fileName : undefined),
                signal: controller.signal,
                onProgress: (progress) => printer.update(progress),
                onRetry: ({delayMs, error}) => printer.note(`retrying in ${(delayMs / 1000).toFixed(1)} s: ${error.message}`)
            });
            printer.done();
            console.log(`saved ${projector.path} (${formatBytes(projector.sizeBytes)}${projector.resumed ? ", resumed" : ""}): ${result.fileName} reads images`);
        }
        // Adopted once its projector is there too, as the app's downloads do: a server never starts it half-equipped.
        if (values.default) await library.setDefault(result.fileName);
        else await library.adopt(result.fileName);
        const listing = await library.list();
        console.log(listing.defaultId === result.fileName
            ? "it is the default model: start it with `npm run serve`"
            : `default model is ${listing.defaultId}; serve this one with \`npm run serve -- --model ${JSON.stringify(result.path)}\` or make it the default: svc-studio models default ${result.fileName}`);
    } finally {
        printer.done();
        process.off("SIGINT", cancel);
    }
}
