import {open} from "node:fs/promises";

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
