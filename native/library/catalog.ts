import type {CatalogModel} from "../../protocol/gateway/contract.ts";

/**
 * Sizes are approximate and labelled so: they are for choosing, not checking (no checksum is claimed here; a
 * pull verifies one only when `--sha256` is given).
 */
export const catalog: readonly CatalogModel[] = [
    {
        id: "qwen3-0.6b-q8_0",
        name: "Qwen3 0.6B (Q8_0)",
        uri: "hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf",
        approxSizeBytes: 640_000_000,
        sizeLabel: "≈ 640 MB (approximate)",
        parameters: "0.6B",
        quantization: "Q8_0",
        roles: ["svc-1"],
        description: "Small, fast chat model that can also think; a good first model for a laptop CPU.",
        license: "Apache-2.0"
    },
    {
        id: "qwen3-1.7b-q8_0",
        name: "Qwen3 1.7B (Q8_0)",
        uri: "hf:Qwen/Qwen3-1.7B-GGUF/Qwen3-1.7B-Q8_0.gguf",
        approxSizeBytes: 1_830_000_000,
        sizeLabel: "≈ 1.8 GB (approximate)",
        parameters: "1.7B",
        quantization: "Q8_0",
        roles: ["svc-1-reasoning", "svc-1"],
        description: "Reasoning model: thinks in <think> before answering and calls tools; serves svc-1-reasoning.",
        license: "Apache-2.0"
    },
    {
        id: "llama-3.2-1b-instruct-q8_0",
        name: "Llama 3.2 1B Instruct (Q8_0)",
        uri: "hf:bartowski/Llama-3.2-1B-Instruct-GGUF/Llama-3.2-1B-Instruct-Q8_0.gguf",
        approxSizeBytes: 1_320_000_000,
        sizeLabel: "≈ 1.3 GB (approximate)",
        parameters: "1.2B",
        quantization: "Q8_0",
        roles: ["svc-1-decision", "svc-1"],
        description: "Instruction model without a thinking phase: direct answers whose label probabilities suit decisions.",
        license: "Llama 3.2 Community License"
    }
];
