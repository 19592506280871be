import {buildChatRequest} from "../chat/buildChatRequest.ts";
import {buildCompletionsRequest} from "../completions/buildCompletionsRequest.ts";
import {useGatewayState} from "../gateway/useGatewayState.ts";
import {buildResponsesRequest} from "../responses/buildResponsesRequest.ts";
import {useChatStore} from "../state/useChatStore.ts";
import {useCompletionsStore} from "../state/useCompletionsStore.ts";
import type {Screen} from "../state/useNavStore.ts";
import {useResponsesStore} from "../state/useResponsesStore.ts";
import {apiBaseUrl} from "./apiBaseUrl.ts";
import type {CodeRequest} from "./types.ts";

/** The request the current playground would send now, with the active connection's base URL; null elsewhere. */
export function useCodeRequest(screen: Screen): CodeRequest | null {
    const chat = useChatStore((state) => state.draft);
    const responses = useResponsesStore((state) => state.draft);
    const completions = useCompletionsStore((state) => state.draft);
    const {data: gatewayState} = useGatewayState();
    const baseUrl = apiBaseUrl(gatewayState);
    if (screen === "chat") return {endpoint: "chat", baseUrl, body: buildChatRequest(chat).body};
    if (screen === "responses") return {endpoint: "responses", baseUrl, body: buildResponsesRequest(responses)};
    if (screen === "completions") return {endpoint: "completions", baseUrl, body: buildCompletionsRequest(completions)};
    return null;
}
