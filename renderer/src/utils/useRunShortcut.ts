import {useEffect} from "react";
import {runChat} from "../runs/runChat.ts";
import {runCompletions} from "../runs/runCompletions.ts";
import {runResponses} from "../runs/runResponses.ts";
import {useChatStore} from "../state/useChatStore.ts";
import {useCompletionsStore} from "../state/useCompletionsStore.ts";
import {useNavStore} from "../state/useNavStore.ts";
import {useResponsesStore} from "../state/useResponsesStore.ts";

const runners = {
    chat: [runChat, () => useChatStore.getState().run.status],
    responses: [runResponses, () => useResponsesStore.getState().run.status],
    completions: [runCompletions, () => useCompletionsStore.getState().run.status]
} as const;

/** Ctrl/Cmd+Enter runs the current playground unless it is already running. */
export function useRunShortcut() {
    useEffect(() => {
        const onKey = (event: KeyboardEvent) => {
            if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
            const screen = useNavStore.getState().screen;
            if (!(screen in runners)) return;
            const [run, status] = runners[screen as keyof typeof runners];
            if (status() === "running") return;
            event.preventDefault();
            void run();
        };
        window.addEventListener("keydown", onKey);
        return () => window.removeEventListener("keydown", onKey);
    }, []);
}
