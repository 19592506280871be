// Electron's entry point (package.json "main"): runs the TypeScript main process through tsx, as the CLI's bin does,
// so `npm start` needs no compile step for main (only the sandboxed preload is compiled, see build/buildPreload.ts).
import {register} from "tsx/esm/api";

register();
await import("./main.ts");
