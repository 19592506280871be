import {useState} from "react";
import {useNavStore} from "../state/useNavStore.ts";
import {toCurl} from "../viewCode/toCurl.ts";
import {toPython} from "../viewCode/toPython.ts";
import {toTypeScript} from "../viewCode/toTypeScript.ts";
import {apiKeyEnvVar} from "../viewCode/types.ts";
import {useCodeRequest} from "../viewCode/useCodeRequest.ts";
import {CopyButton} from "./CopyButton.tsx";
import {Icon} from "./Icon.tsx";
import {Tabs} from "./Tabs.tsx";

type Language = "curl" | "typescript" | "python";

const generators = {curl: toCurl, typescript: toTypeScript, python: toPython};

/** The current request as code to run outside the app, updated as the request is edited. */
export function ViewCodePanel() {
    const screen = useNavStore((state) => state.screen);
    const close = useNavStore((state) => state.toggleViewCode);
    const request = useCodeRequest(screen);
    const [language, setLanguage] = useState<Language>("curl");
    if (!request) return null;
    const generate = generators[language];
    const shown = generate(request, {elideDataUrls: true});
    return (
        <aside className="code-panel" data-testid="view-code-panel">
            <div className="code-panel-head">
                <h3>View code</h3>
                <button type="button" className="icon-btn" aria-label="Close code panel" onClick={close}><Icon name="close" /></button>
            </div>
            <Tabs<Language> testId="code-tab" active={language} onChange={setLanguage}
                tabs={[{id: "curl", label: "curl"}, {id: "typescript", label: "TypeScript"}, {id: "python", label: "Python"}]} />
            <div className="code-meta">
                <span className="mono small" data-testid="code-base-url">{request.baseUrl}</span>
                <CopyButton testId="copy-code" text={() => generate(request)} />
            </div>
            <pre className="code-block" data-testid="code-block"><code>{shown}</code></pre>
            <p className="muted small code-note">
                Set <code>{apiKeyEnvVar}</code> in your environment first; keys never appear in code shown here.
                {shown.includes("elided]") && " Image data is shortened for display; Copy copies the full request."}
            </p>
        </aside>
    );
}
