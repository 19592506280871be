import type {JsonValidator} from "../jsonSchema/compileJsonSchema.ts";
import type {ChatTurnResult} from "../generateChatTurn.ts";

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
