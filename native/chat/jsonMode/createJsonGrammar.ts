import type {Llama, LlamaGrammar} from "node-llama-cpp";
import {toGrammarSchema} from "../jsonSchema/toGrammarSchema.ts";

/**
 * The grammar that constrains a JSON-mode reply (spec 2.7): any JSON object for `json_object`, the schema's own
 * grammar for `json_schema`. A schema node-llama-cpp cannot turn into a grammar falls back to "any JSON object";
 * the reply is validated against the schema either way, and regenerated when it does not conform.
 */
export async function createJsonGrammar(llama: Llama, schema: Record<string, unknown> | undefined): Promise<LlamaGrammar> {
    if (schema == null) return llama.getGrammarFor("json");
    try {
        return await llama.createGrammarForJsonSchema(toGrammarSchema(schema));
    } catch {
        return llama.getGrammarFor("json");
    }
}
