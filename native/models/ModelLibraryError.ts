/** A library request that names no model of the library, or not by a valid id; its message is shown as is. */
export class ModelLibraryError extends Error {
    public readonly code: "model_not_found" | "invalid_model_id";

    public constructor(code: ModelLibraryError["code"], message: string) {
        super(message);
        this.name = "ModelLibraryError";
        this.code = code;
    }
}
