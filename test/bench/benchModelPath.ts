import {embeddedModelPath} from "../../native/library/embeddedModel.ts";

/** The built-in stories260K (resources/models): a real trained model, in every clone. */
export async function benchModelPath(): Promise<{path: string, name: string}> {
    return {path: embeddedModelPath, name: "stories260K"};
}
