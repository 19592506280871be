import {open} from "node:fs/promises";

/** Thrown when a model file cannot be served; its message is the one line the CLI prints. */
export class ModelFileError extends Error {
    public constructor(message: string) {
        super(message);
        this.name = "ModelFileError";
    }
}

const ggufMagic = "GGUF";

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
        const header = Buffer.alloc(4);
        const {bytesRead} = await handle.read(header, 0, 4, 0).catch((error: NodeJS.ErrnoException) => {
            if (error.code === "EISDIR") throw new ModelFileError(`model path is a directory, not a GGUF file: ${path}`);
            throw error;
        });
        if (bytesRead < 4 || header.toString("latin1") !== ggufMagic)
            throw new ModelFileError(`not a GGUF model file (it does not start with the GGUF magic bytes): ${path}`);
    } finally {
        await handle.close();
    }
}
