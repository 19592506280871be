import {open} from "node:fs/promises";
import type {ChatWrapper, GgufFileInfo, GgufTensorInfo} from "node-llama-cpp";
import path from "node:path";
import type {ModelFileInfo} from "../../protocol/gateway/contract.ts";

type NodeLlamaCpp = typeof import("node-llama-cpp");
let nodeLlamaCppModule: Promise<NodeLlamaCpp> | undefined;

/**
 * node-llama-cpp, loaded at the first header read rather than imported: the app's main process lists the model
 * library through this module, and it loads no native package at start-up (electron/build/bundle.ts checks), so a
 * problem with one can never keep its window from opening.
 */
function nodeLlamaCpp(): Promise<NodeLlamaCpp> {
    return nodeLlamaCppModule ??= import("node-llama-cpp");
}

/** A parameter count as model cards write it: 224K, 596M, 1.7B (3 significant digits at most). */
export function formatParameterCount(count: number): string {
    const units: Array<[number, string]> = [[1e12, "T"], [1e9, "B"], [1e6, "M"], [1e3, "K"]];
    for (const [size, unit] of units)
        if (count >= size) return `${Number((count / size).toPrecision(3))}${unit}`;
    return String(count);
}

/** Thrown when a model file cannot be served; its message is the one line the CLI prints. */
export class ModelFileError extends Error {
    public constructor(message: string) {
        super(message);
        this.name = "ModelFileError";
    }
}

const ggufMagic = "GGUF";
/** Magic, u32 version, u64 tensor count, u64 metadata entry count. */
const headerBytes = 24;
const supportedVersions = [2, 3];

/** Refuses a missing, unreadable or non-GGUF file before llama.cpp sees it, with a message a person can act on. */
export async function checkModelFile(path: string): Promise<void> {
    let handle;
    try {
        handle = await open(path, "r");
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") throw new ModelFileError(`model file not found: ${path}`);
        if (code === "EACCES" || code === "EPERM") throw new ModelFileError(`model file is not readable (permission denied): ${path}`);
        if (code === "EISDIR") throw new ModelFileError(`model path is a directory, not a GGUF file: ${path}`);
        throw new ModelFileError(`cannot open model file ${path}: ${(error as Error).message}`);
    }
    try {
        const header = Buffer.alloc(headerBytes);
        const {bytesRead} = await handle.read(header, 0, headerBytes, 0).catch((error: NodeJS.ErrnoException) => {
            if (error.code === "EISDIR") throw new ModelFileError(`model path is a directory, not a GGUF file: ${path}`);
            throw error;
        });
        if (bytesRead < 4 || header.toString("latin1", 0, 4) !== ggufMagic)
            throw new ModelFileError(`not a GGUF model file (it does not start with the GGUF magic bytes): ${path}`);
        checkHeaderCounts(header, bytesRead, (await handle.stat()).size, path);
    } finally {
        await handle.close();
    }
}

/**
 * A damaged header (e.g. the magic followed by junk) must be refused here: node-llama-cpp's reader treats an
 * unknown version as v3 and then loops for minutes over the absurd entry counts it reads.
 */
function checkHeaderCounts(header: Buffer, bytesRead: number, fileSize: number, path: string) {
    const version = bytesRead >= 8 ? header.readUInt32LE(4) : undefined;
    if (version == null || !supportedVersions.includes(version))
        throw new ModelFileError(`damaged or unsupported GGUF file (header version ${version ?? "missing"}, expected ${supportedVersions.join(" or ")}): ${path}`);
    if (bytesRead < headerBytes)
        throw new ModelFileError(`damaged GGUF file (its header is cut short): ${path}`);
    const tensors = header.readBigUInt64LE(8);
    const entries = header.readBigUInt64LE(16);
    // Every tensor description and metadata entry takes more than 8 bytes of the file.
    if ((tensors + entries) * 8n > BigInt(fileSize))
        throw new ModelFileError(`damaged GGUF file (its header declares ${tensors} tensors and ${entries} metadata entries in ${fileSize} bytes): ${path}`);
}

/** Big token tables the listing never needs; skipping them keeps a header read of a 150k-token vocabulary fast. */
const skippedKeys = ["tokenizer.ggml.tokens", "tokenizer.ggml.scores", "tokenizer.ggml.token_type", "tokenizer.ggml.merges"];

/** Reads a GGUF header (after the same sanity check the engine makes, so a damaged file fails fast and clearly). */
export async function readModelFileInfo(filePath: string): Promise<ModelFileInfo> {
    await checkModelFile(filePath);
    const llama = await nodeLlamaCpp();
    const fileInfo = await llama.readGgufFileInfo(filePath, {sourceType: "filesystem", ignoreKeys: skippedKeys, logWarnings: false});
    return describeGguf(llama, fileInfo, path.basename(filePath));
}

function describeGguf(llama: NodeLlamaCpp, fileInfo: GgufFileInfo, fileName: string): ModelFileInfo {
    const general = fileInfo.metadata.general;
    const architectureMetadata = fileInfo.architectureMetadata as {context_length?: number, block_count?: number};
    const template = fileInfo.metadata.tokenizer?.chat_template;
    const parameters = fileInfo.fullTensorInfo != null && fileInfo.fullTensorInfo.length > 0 ? countParameters(fileInfo.fullTensorInfo) : undefined;
    // The wrapper node-llama-cpp would pick for this file when loading it, resolved from the header alone.
    const wrapper = llama.resolveChatWrapper({fileInfo, filename: fileName, warningLogs: false});
    return {
        name: general.name,
        architecture: String(general.architecture),
        parameters,
        parameterLabel: general.size_label ?? (parameters != null ? formatParameterCount(parameters) : undefined),
        quantization: fileTypeName(llama, general.file_type) ?? dominantTensorType(llama, fileInfo.fullTensorInfo),
        contextLength: architectureMetadata.context_length,
        layers: architectureMetadata.block_count,
        hasChatTemplate: typeof template === "string" && template !== "",
        chatWrapper: wrapper?.wrapperName ?? "General",
        canThink: wrapper != null && canThink(wrapper),
        canCallTools: (wrapper != null && wrapper.settings.functions !== llama.ChatWrapper.defaultSettings.functions)
            || (typeof template === "string" && /\btools\b/.test(template)),
        ...projectorOf(fileInfo)
    };
}

/**
 * A vision projector (mmproj) as llama.cpp's converter writes it: `general.type` "mmproj" (recent files), or the
 * `clip.*` keys libmtmd reads (older files, architecture "clip"). Its projector type is `clip.projector_type`,
 * or `clip.vision.projector_type` in files that also hold an audio encoder.
 */
function projectorOf(fileInfo: GgufFileInfo): {projector?: {type?: string}} {
    const metadata = fileInfo.metadata as unknown as {general: {type?: unknown}, clip?: {projector_type?: unknown, vision?: {projector_type?: unknown}}};
    if (metadata.general.type !== "mmproj" && metadata.clip == null) return {};
    const type = metadata.clip?.projector_type ?? metadata.clip?.vision?.projector_type;
    return {projector: typeof type === "string" ? {type} : {}};
}

function countParameters(tensors: readonly GgufTensorInfo[]): number {
    let total = 0;
    for (const tensor of tensors)
        total += tensor.dimensions.reduce<number>((product, dimension) => product * Number(dimension), 1);
    return total;
}

function fileTypeName(llama: NodeLlamaCpp, fileType: number | undefined): string | undefined {
    const name = fileType != null ? llama.GgufFileType[fileType] : undefined;
    return name?.replace(/^(MOSTLY|ALL)_/, "");
}

/** The tensor type holding the most weights (a file without `general.file_type` is still mostly one type). */
function dominantTensorType(llama: NodeLlamaCpp, tensors: readonly GgufTensorInfo[] | undefined): string | undefined {
    const weights = new Map<number, number>();
    for (const tensor of tensors ?? [])
        weights.set(tensor.ggmlType, (weights.get(tensor.ggmlType) ?? 0) + tensor.dimensions.reduce<number>((product, dimension) => product * Number(dimension), 1));
    const [type] = [...weights].sort((a, b) => b[1] - a[1])[0] ?? [];
    return type != null ? llama.GgmlType[type] : undefined;
}

/**
 * Whether the loaded model's chat format has a thought segment (e.g. `<think>...</think>`), so node-llama-cpp
 * can separate its working from its answer and budget it; only then is there a reasoning variant to serve.
 */
export function canThink(chatWrapper: ChatWrapper): boolean {
    return chatWrapper.settings.segments?.thought?.prefix != null;
}
