import {parseArgs} from "node:util";
import {catalog} from "../models/catalog.ts";
import {ModelLibrary, type LibraryListing, type LibraryModel} from "../models/ModelLibrary.ts";
import {formatBytes} from "../models/utils/formatBytes.ts";
import {UsageError} from "./parseServeArgs.ts";

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
