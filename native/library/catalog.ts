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
    },
    // Vision models: a model and its projector (mmproj), downloaded together; the projector is saved as
    // `mmproj-<model file>` so the library pairs it by name (native/library/projectors.ts).
    {
        id: "smolvlm-256m-instruct-q8_0",
        name: "SmolVLM 256M Instruct (Q8_0), vision",
        uri: "hf:ggml-org/SmolVLM-256M-Instruct-GGUF/SmolVLM-256M-Instruct-Q8_0.gguf",
        approxSizeBytes: 175_000_000,
        sizeLabel: "≈ 175 MB + 104 MB projector (approximate)",
        parameters: "256M",
        quantization: "Q8_0",
        roles: ["svc-1"],
        description: "Tiny vision model (Idefics3: SmolLM2 with a SigLIP encoder, 64 tokens per 512 px tile): reads images in chat and decisions.",
        license: "Apache-2.0",
        projector: {
            uri: "hf:ggml-org/SmolVLM-256M-Instruct-GGUF/mmproj-SmolVLM-256M-Instruct-Q8_0.gguf",
            fileName: "mmproj-SmolVLM-256M-Instruct-Q8_0.gguf",
            approxSizeBytes: 104_000_000,
            sizeLabel: "≈ 104 MB (approximate)"
        }
    },
    {
        id: "gemma-3-4b-it-q4_k_m",
        name: "Gemma 3 4B it (Q4_K_M), vision",
        uri: "hf:ggml-org/gemma-3-4b-it-GGUF/gemma-3-4b-it-Q4_K_M.gguf",
        approxSizeBytes: 2_490_000_000,
        sizeLabel: "≈ 2.5 GB + 851 MB projector (approximate)",
        parameters: "3.9B",
        quantization: "Q4_K_M",
        roles: ["svc-1"],
        description: "Capable vision model (256 tokens per image): reads photos, charts and screenshots in chat and decisions.",
        license: "Gemma Terms of Use",
        projector: {
            uri: "hf:ggml-org/gemma-3-4b-it-GGUF/mmproj-model-f16.gguf",
            fileName: "mmproj-gemma-3-4b-it-Q4_K_M.gguf",
            approxSizeBytes: 851_000_000,
            sizeLabel: "≈ 851 MB (approximate)"
        }
    }
];
