import {ChatWrapper, GgmlType, GgufFileType, readGgufFileInfo, resolveChatWrapper, type GgufFileInfo, type GgufTensorInfo} from "node-llama-cpp";
import path from "node:path";
import {canThink} from "../chat/reasoning/canThink.ts";
import {checkModelFile} from "./checkModelFile.ts";
import {formatParameterCount} from "./utils/formatParameterCount.ts";

/** What a GGUF file says about itself, read from its header only (no weights are loaded). */
export type ModelFileInfo = {
    /** `general.name`, when the file has one. */
    name?: string,
    /** `general.architecture`, e.g. `llama`, `qwen3`. */
    architecture: string,
    /** Weights counted from the tensor shapes. */
    parameters?: number,
    /** `general.size_label` (e.g. `1.7B`) when present, else the count above written the same way. */
    parameterLabel?: string,
    /** File type (`Q8_0`, `Q4_K_M`, `F16` ...) from `general.file_type`, else the most common tensor type. */
    quantization?: string,
    /** Training context length, the largest context worth creating. */
    contextLength?: number,
    layers?: number,
    hasChatTemplate: boolean,
    /** node-llama-cpp's chat wrapper for the file, e.g. `ChatML`, `Qwen`, `Jinja`; `General` when it has no chat format. */
    chatWrapper: string,
    /** The chat format has a thought segment: the model can reason and `svc-1-reasoning` can be served with it. */
    canThink: boolean,
    /** The chat format has its own tool-call syntax (or the template renders `tools`). */
    canCallTools: boolean
};

/** Big token tables the listing never needs; skipping them keeps a header read of a 150k-token vocabulary fast. */
const skippedKeys = ["tokenizer.ggml.tokens", "tokenizer.ggml.scores", "tokenizer.ggml.token_type", "tokenizer.ggml.merges"];

/** Reads a GGUF header (after the same sanity check the engine makes, so a damaged file fails fast and clearly). */
export async function readModelFileInfo(filePath: string): Promise<ModelFileInfo> {
    await checkModelFile(filePath);
    const fileInfo = await readGgufFileInfo(filePath, {sourceType: "filesystem", ignoreKeys: skippedKeys, logWarnings: false});
    return describeGguf(fileInfo, path.basename(filePath));
}

export function describeGguf(fileInfo: GgufFileInfo, fileName: string): ModelFileInfo {
    const general = fileInfo.metadata.general;
    const architectureMetadata = fileInfo.architectureMetadata as {context_length?: number, block_count?: number};
    const template = fileInfo.metadata.tokenizer?.chat_template;
    const parameters = fileInfo.fullTensorInfo != null && fileInfo.fullTensorInfo.length > 0 ? countParameters(fileInfo.fullTensorInfo) : undefined;
    // The wrapper node-llama-cpp would pick for this file when loading it, resolved from the header alone.
    const wrapper = resolveChatWrapper({fileInfo, filename: fileName, warningLogs: false});
    return {
        name: general.name,
        architecture: String(general.architecture),
        parameters,
        parameterLabel: general.size_label ?? (parameters != null ? formatParameterCount(parameters) : undefined),
        quantization: fileTypeName(general.file_type) ?? dominantTensorType(fileInfo.fullTensorInfo),
        contextLength: architectureMetadata.context_length,
        layers: architectureMetadata.block_count,
        hasChatTemplate: typeof template === "string" && template !== "",
        chatWrapper: wrapper?.wrapperName ?? "General",
        canThink: wrapper != null && canThink(wrapper),
        canCallTools: (wrapper != null && wrapper.settings.functions !== ChatWrapper.defaultSettings.functions)
            || (typeof template === "string" && /\btools\b/.test(template))
    };
}

function countParameters(tensors: readonly GgufTensorInfo[]): number {
    let total = 0;
    for (const tensor of tensors)
        total += tensor.dimensions.reduce<number>((product, dimension) => product * Number(dimension), 1);
    return total;
}

function fileTypeName(fileType: number | undefined): string | undefined {
    const name = fileType != null ? GgufFileType[fileType] : undefined;
    return name?.replace(/^(MOSTLY|ALL)_/, "");
}

/** The tensor type holding the most weights (a file without `general.file_type` is still mostly one type). */
function dominantTensorType(tensors: readonly GgufTensorInfo[] | undefined): string | undefined {
    const weights = new Map<number, number>();
    for (const tensor of tensors ?? [])
        weights.set(tensor.ggmlType, (weights.get(tensor.ggmlType) ?? 0) + tensor.dimensions.reduce<number>((product, dimension) => product * Number(dimension), 1));
    const [type] = [...weights].sort((a, b) => b[1] - a[1])[0] ?? [];
    return type != null ? GgmlType[type] : undefined;
}
