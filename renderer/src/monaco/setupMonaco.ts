import {loader} from "@monaco-editor/react";
// monaco-editor 0.57 maps its package exports "./*" onto "esm/vs/*", so the deep "esm/vs/..." spelling no
// longer resolves; these are the same files.
import EditorWorker from "monaco-editor/editor/editor.worker?worker";
import JsonWorker from "monaco-editor/language/json/json.worker?worker";
import {jsonDefaults} from "monaco-editor/languages/features/json/register.js";
import * as monaco from "./monacoBundle.ts";
import {editorSchemas} from "./editorSchemas.ts";

/**
 * Points @monaco-editor/react at the bundled monaco-editor instead of its default CDN copy, gives Monaco
 * its workers from our own bundle (the page's CSP allows nothing else), and teaches the JSON language
 * the shapes of our editors so it marks mistakes as you type.
 */
export function setupMonaco() {
    self.MonacoEnvironment = {
        getWorker(_workerId: string, label: string) {
            return label === "json" ? new JsonWorker() : new EditorWorker();
        }
    };
    jsonDefaults.setDiagnosticsOptions({validate: true, allowComments: false, trailingCommas: "error", enableSchemaRequest: false, schemas: editorSchemas});
    // Editor colours that sit on the app's surfaces instead of Monaco's own greys.
    monaco.editor.defineTheme("svc-dark", {base: "vs-dark", inherit: true, rules: [], colors: {"editor.background": "#12151b", "editorGutter.background": "#12151b"}});
    monaco.editor.defineTheme("svc-light", {base: "vs", inherit: true, rules: [], colors: {"editor.background": "#fbfbfc", "editorGutter.background": "#fbfbfc"}});
    loader.config({monaco});
}
