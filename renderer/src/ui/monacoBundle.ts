// The slice of monaco-editor this app uses: the core API with its editor features, and the JSON language.
// Importing "monaco-editor" whole would also bundle the TypeScript, CSS and HTML language workers (about
// 9 MB) that no editor here uses.
//
// `internal/common/workers.js` registers every editor contribution and service. The JSON language imports it
// too, but only lazily when the first JSON model opens, which is after the first editor was created; services
// registered that late are unknown to that editor ("depends on UNKNOWN service ICodeLensCache"). Loading it
// here, first, registers them all before any editor exists.
import "monaco-editor/internal/common/workers.js";
import "monaco-editor/languages/features/json/register.js";

export * from "monaco-editor/editor/editor.api.js";
