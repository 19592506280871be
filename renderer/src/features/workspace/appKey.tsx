// Which workspace key the rest of the app uses: View code's key (its name and public start; the secret only while it
// was just issued, in memory), and the advice a playground shows when the local engine refuses the app's key.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import {appDataStorage} from "../../gateway/appData.ts";
import {activeConnection, useGatewayState} from "../../gateway/gatewayState.ts";
import type {ErrorInfo} from "../../ui/ApiErrorView.tsx";
import {useNavStore} from "../../ui/appState.ts";

/** A key for View code: what to put in SVC_API_KEY. The secret is present only when the key was issued in this session. */
export type CodeKey = {name: string, hint: string, secret?: string};

type CodeKeyState = {key: CodeKey | null, choose: (key: CodeKey | null) => void};

/** Kept across launches without its secret: a secret is shown once (spec §5), never written to the app's saved data. */
export const useCodeKeyStore = create<CodeKeyState>()(persist((set) => ({
    key: null,
    choose: (key) => set({key})
}), {name: "svc-studio-code-key", storage: createJSONStorage(() => appDataStorage), partialize: (state) => ({key: state.key == null ? null : {name: state.key.name, hint: state.key.hint}})}));

/**
 * What to do about a 401 from the app's own engine: once it holds workspaces it wants a workspace key, which
 * the user chooses on the Workspace screen. Undefined for any other error, and for remote connections.
 */
export function workspaceKeyAdvice(error: ErrorInfo, connection: {kind: "local" | "remote", hasKey: boolean, keyHint?: string}): string | undefined {
    if (connection.kind !== "local" || error.status !== 401 || error.code !== "invalid_api_key") return undefined;
    // Said from the app's key as it is now, which may have changed since this request: so never "your key was refused".
    return connection.hasKey
        ? `The local engine refused this request's key. This app now sends the workspace key ${connection.keyHint ?? ""}…; ` +
            "if that key was revoked or rotated, choose another on the Workspace screen."
        : "The local engine holds workspaces, so every request needs a workspace key. Create one on the Workspace screen and choose \"Use for this app's requests\".";
}

/** The advice above under a playground's error, with a way to the Workspace screen. */
export function WorkspaceKeyAdvice({error}: {error: ErrorInfo}) {
    const {data: state} = useGatewayState();
    const go = useNavStore((nav) => nav.go);
    const advice = workspaceKeyAdvice(error, activeConnection(state));
    if (advice == null) return null;
    return (
        <div className="workspace-advice" data-testid="workspace-key-advice">
            <span>{advice}</span>
            <button type="button" className="btn btn-sm" onClick={() => go("workspace")}>Open Workspace</button>
        </div>
    );
}
