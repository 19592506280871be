// The app itself, imported by the entry (main.tsx) once the saved documents are loaded: Monaco wired to our own
// bundle, what was open before a reload or a restart opened again, then the React root with the query cache and the
// stylesheets.
import {loader} from "@monaco-editor/react";
import {QueryClientProvider} from "@tanstack/react-query";
import {StrictMode} from "react";
import {createRoot} from "react-dom/client";
import {App} from "./App.tsx";
// Monaco's core is imported after the app, so in the bundle its stylesheet comes after the screens' and before the
// app's own (below). monaco-editor 0.57 maps its package exports "./*" onto "esm/vs/*", so the deep "esm/vs/..."
// spelling no longer resolves; these are the same files.
import EditorWorker from "monaco-editor/editor/editor.worker?worker";
import JsonWorker from "monaco-editor/language/json/json.worker?worker";
import {jsonDefaults} from "monaco-editor/languages/features/json/register.js";
import * as monaco from "../ui/monacoBundle.ts";
import {editorSchemas} from "../ui/JsonEditor.tsx";
import {queryClient} from "../gateway/gatewayState.ts";
import {restoreOpenExperiment} from "../features/experiments/experimentRun.ts";
import {restoreOpenJob} from "../features/scoring/scoringJob.ts";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/controls.css";
import "./styles/playground.css";
import "./styles/pages.css";

/**
 * Points @monaco-editor/react at the bundled monaco-editor instead of its default CDN copy, gives Monaco
 * its workers from our own bundle (the page's CSP allows nothing else), and teaches the JSON language
 * the shapes of our editors so it marks mistakes as you type.
 */
function setupMonaco() {
    self.MonacoEnvironment = {
        getWorker(_workerId: string, label: string) {
            return label === "json" ? new JsonWorker() : new EditorWorker();
        }
    };
    jsonDefaults.setDiagnosticsOptions({validate: true, allowComments: false, trailingCommas: "error", enableSchemaRequest: false, schemas: editorSchemas});
    // Editor colours that sit on the app's surfaces instead of Monaco's own greys, with line numbers at WCAG AA contrast.
    monaco.editor.defineTheme("svc-dark", {base: "vs-dark", inherit: true, rules: [], colors: {"editor.background": "#12151b", "editorGutter.background": "#12151b",
        "editorLineNumber.foreground": "#8790a0", "editorLineNumber.dimmedForeground": "#8790a0"}});
    monaco.editor.defineTheme("svc-light", {base: "vs", inherit: true, rules: [], colors: {"editor.background": "#fbfbfc", "editorGutter.background": "#fbfbfc",
        "editorLineNumber.foreground": "#5d6471", "editorLineNumber.dimmedForeground": "#5d6471"}});
    loader.config({monaco});
}

setupMonaco();

// Before the screens mount, so a screen's own reopening (Experiments' interrupted run) finds these under way. A scoring
// job that was running goes on by itself, whichever screen is shown.
void restoreOpenJob();
void restoreOpenExperiment();

createRoot(document.getElementById("root")!).render(
    <StrictMode>
        <QueryClientProvider client={queryClient}>
            <App />
        </QueryClientProvider>
    </StrictMode>
);
