import {type JsonValidator, toGrammarSchema} from "./jsonMode.ts";
import type {ChatTurnResult} from "./turnRun.ts";
import {LlamaText, type ChatModelFunctions, type ChatWrapper, type ChatWrapperGeneratedContextState} from "node-llama-cpp";
import type {ChatTool} from "../../protocol/chat/types.ts";

/** A forced turn keeps its contract when it made at least one call and every call's arguments validate. */
export function checkToolCalls(result: ChatTurnResult, validators: Map<string, JsonValidator | undefined>): string | undefined {
    if (result.invalidToolCall != null) return `the call broke its parameter schema: ${result.invalidToolCall}`;
    if (result.toolCalls.length === 0) return "the reply made no tool call";
    for (const call of result.toolCalls) {
        const problem = validators.get(call.function.name)?.(JSON.parse(call.function.arguments));
        if (problem != null) return `the arguments of ${call.function.name} do not validate: ${problem}`;
    }
    return undefined;
}

/**
 * A chat wrapper that behaves like `inner` but makes the model's turn a function call (tool_choice `required`
 * or a named function, spec 2.5): the rendered prompt ends with the wrapper's own call prefix and reports the
 * call as "initially engaged", so LlamaChat generates straight into its function-name and parameter grammars.
 * Every tool in `documented` is still shown to the model, even when the grammar allows only some of them.
 */
export function createForcedCallChatWrapper(inner: ChatWrapper, documented: ChatModelFunctions): ChatWrapper {
    const forced: ChatWrapper = Object.create(inner);
    forced.generateContextState = (options): ChatWrapperGeneratedContextState => {
        const state = inner.generateContextState({...options, availableFunctions: documented});
        return {
            contextText: LlamaText([state.contextText, inner.settings.functions.call.prefix]),
            stopGenerationTriggers: state.stopGenerationTriggers,
            ignoreStartText: state.ignoreStartText,
            functionCall: {initiallyEngaged: true, disengageInitiallyEngaged: []}
        };
    };
    return forced;
}

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
