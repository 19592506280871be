import type {ChatModelFunctions} from "node-llama-cpp";
import type {ChatTool} from "../../../protocol/chat/types.ts";
import {toGrammarSchema} from "../jsonSchema/toGrammarSchema.ts";

/**
 * OpenAI function tools as node-llama-cpp functions: the chat wrapper documents them to the model in its own
 * tool-call format, and LlamaChat constrains a call's parameters to the schema's grammar.
 */
export function toModelFunctions(tools: ChatTool[]): ChatModelFunctions {
    return Object.fromEntries(tools.map((tool) => [tool.function.name, {
        description: tool.function.description,
        params: tool.function.parameters != null ? toGrammarSchema(tool.function.parameters) : undefined
    }]));
}
