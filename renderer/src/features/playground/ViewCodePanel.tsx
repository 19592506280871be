// The View code panel beside a playground or the Decision studio, showing the request it would send now.
import {useId, useState} from "react";
import {useGatewayState} from "../../gateway/gatewayState.ts";
import {type Screen, useNavStore} from "../../ui/appState.ts";
import {CopyButton, Icon, TabPanel, Tabs} from "../../ui/controls.tsx";
import {buildChatRequest} from "./chat.ts";
import {buildCompletionsRequest} from "./completions.ts";
import {buildResponsesRequest} from "./responses.ts";
import {useChatStore, useCompletionsStore, useResponsesStore} from "./stores.ts";
import {apiBaseUrl, type CodeRequest, toCurl, toPython, toTypeScript, apiKeyEnvVar} from "./viewCode.ts";
import {useCodeKeyStore} from "../workspace/appKey.tsx";

/** The request the current playground would send now, with the active connection's base URL; null elsewhere. */
export function useCodeRequest(screen: Screen): CodeRequest | null {
    const chat = useChatStore((state) => state.draft);
    const responses = useResponsesStore((state) => state.draft);
    const completions = useCompletionsStore((state) => state.draft);
    const {data: gatewayState} = useGatewayState();
    if (screen === "chat") return {endpoint: "chat", baseUrl: apiBaseUrl(gatewayState, "chat"), body: buildChatRequest(chat).body};
    if (screen === "responses") return {endpoint: "responses", baseUrl: apiBaseUrl(gatewayState, "responses"), body: buildResponsesRequest(responses)};
    if (screen === "completions") return {endpoint: "completions", baseUrl: apiBaseUrl(gatewayState, "completions"), body: buildCompletionsRequest(completions)};
    return null;
}

type Language = "curl" | "typescript" | "python";

const generators = {curl: toCurl, typescript: toTypeScript, python: toPython};

/** The current playground's request as code to run outside the app, updated as the request is edited. */
export function ViewCodePanel() {
    const screen = useNavStore((state) => state.screen);
    const request = useCodeRequest(screen);
    return request && <CodePanel request={request} />;
}

/**
 * A request as code to run outside the app (curl, TypeScript, Python), with the key read from the environment.
 * `problem`: why the server would refuse the request as it is now (it is shown all the same).
 */
export function CodePanel({request, problem}: {request: CodeRequest, problem?: string | null}) {
    const close = useNavStore((state) => state.toggleViewCode);
    const codeKey = useCodeKeyStore((state) => state.key);
    const [language, setLanguage] = useState<Language>("curl");
    const panelId = useId();
    // Long lines (a prompt, a JSON schema) wrap when asked; unwrapped, the code reads as it would be pasted.
    const [wrap, setWrap] = useState(false);
    const generate = generators[language];
    const shown = generate(request, {elideDataUrls: true});
    return (
        <aside className="code-panel" data-testid="view-code-panel">
            <div className="code-panel-head">
                <h3>View code</h3>
                <button type="button" className="icon-btn" aria-label="Close code panel" onClick={close}><Icon name="close" /></button>
            </div>
            <Tabs<Language> testId="code-tab" active={language} onChange={setLanguage} label="Code language" panelId={panelId}
                tabs={[{id: "curl", label: "curl"}, {id: "typescript", label: "TypeScript"}, {id: "python", label: "Python"}]} />
            <TabPanel id={panelId} active={language} className="code-tab-panel">
                <div className="code-meta">
                    <span className="mono small" data-testid="code-base-url">{request.baseUrl}</span>
                    <label className="check small code-wrap"><input type="checkbox" checked={wrap} onChange={(event) => setWrap(event.target.checked)} data-testid="code-wrap" /> Wrap lines</label>
                    <CopyButton testId="copy-code" text={() => generate(request)} />
                </div>
                {problem && <div className="field-warning code-problem" data-testid="code-problem">Not sendable yet: {problem}</div>}
                {/* Focusable, so the keyboard scrolls it too. */}
                <pre className={`code-block${wrap ? " wrapped" : ""}`} data-testid="code-block" tabIndex={0} aria-label={`The request as ${language === "curl" ? "a curl command" : `a ${language === "python" ? "Python" : "TypeScript"} program`}`}><code>{shown}</code></pre>
            </TabPanel>
            <p className="muted small code-note">
                Set <code>{apiKeyEnvVar}</code> in your environment first; keys never appear in code shown here.
                {isLoopback(request.baseUrl) && codeKey == null ? " For the app's own engine it is the engine key (Engine & connections, Copy engine key), " +
                    "or once the engine holds workspaces, one of their keys (Workspace screen)." : ""}
                {shown.includes("elided]") && " Image data is shortened for display; Copy copies the full request."}
            </p>
            {isLoopback(request.baseUrl) && codeKey != null && <CodeKeyNote />}
        </aside>
    );
}

/**
 * The workspace key chosen for View code (Workspace screen): its name and public start, and, only while its secret
 * was just issued in this session, the `export` line that sets it.
 */
function CodeKeyNote() {
    const codeKey = useCodeKeyStore((state) => state.key)!;
    const choose = useCodeKeyStore((state) => state.choose);
    return (
        <div className="muted small code-note code-key" data-testid="code-key">
            <span>Set <code>{apiKeyEnvVar}</code> to the workspace key <b>{codeKey.name}</b> <span className="mono">{codeKey.hint}…</span>
                {codeKey.secret == null ? " (its secret was shown once, when it was issued)." : "."}</span>
            {codeKey.secret != null && <CopyButton testId="copy-key-export" text={() => `export ${apiKeyEnvVar}=${codeKey.secret}`} />}
            <button type="button" className="link-btn" onClick={() => choose(null)}>Use another key</button>
        </div>
    );
}

function isLoopback(url: string): boolean {
    return /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(url);
}
