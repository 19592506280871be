import {LlamaText, type ChatModelFunctions, type ChatWrapper, type ChatWrapperGeneratedContextState} from "node-llama-cpp";

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
