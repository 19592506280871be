// Opening a version where it was made, without the Versions screen importing those screens (they import versions): the
// request waits here, and the screen of its kind takes it as it shows (useVersionOpening), loads it into its draft
// and says so in its save panel, with Undo where it replaced a draft.
import {useEffect} from "react";
import {create} from "zustand";
import type {PromptVersion} from "../../../../client/experiments/types.ts";
import {useNavStore, type Screen} from "../../ui/appState.ts";
import {useVersionPanelStore, type Opened} from "./SaveVersionPanel.tsx";
import {kindOf, type PromptKind} from "./versionStore.ts";

const screenOf: Record<PromptKind, Screen> = {chat: "chat", responses: "responses", decision: "decisions"};

const useOpenRequest = create<{version: PromptVersion | null}>()(() => ({version: null}));

/** Asks the screen the version was made on to open it, and shows that screen. */
export function requestOpen(version: PromptVersion): void {
    useOpenRequest.setState({version});
    useNavStore.getState().go(screenOf[kindOf(version.prompt)]);
}

/** Called by a screen that opens versions of `kind`: takes a waiting request, opens it with `open`, and says what happened. */
export function useVersionOpening(kind: PromptKind, open: (version: PromptVersion) => Opened): void {
    const version = useOpenRequest((state) => state.version);
    useEffect(() => {
        if (version === null || kindOf(version.prompt) !== kind) return;
        useOpenRequest.setState({version: null});
        useVersionPanelStore.getState().set(kind, {current: version.itemId, notice: open(version)});
    }, [version, kind, open]);
}
