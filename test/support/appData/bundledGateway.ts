// Test-only: the gateway with an app-data folder, as test/app/mainBundle.test.ts bundles it the way the Electron main
// process is bundled (electron/build/bundle.ts), to run it as the app would: no TypeScript, npm packages external.
//   node <bundle>.mjs <data-dir> <renderer-dir>
// Prints {"url", "token"} as one line once listening; each line read on stdin ("addons") is answered with the native
// addons loaded so far, as a preload that wraps process.dlopen recorded them in globalThis.loadedAddons.
import {createInterface} from "node:readline";
import {ConnectionStore} from "../../../electron/connections/ConnectionStore.ts";
import {EngineSupervisor} from "../../../electron/engine/EngineSupervisor.ts";
import {Gateway} from "../../../electron/gateway/Gateway.ts";
import {MemoryKeyVault} from "../../../electron/secrets/KeyVault.ts";

const [appDataDir, rendererDir] = process.argv.slice(2);
const gateway = await Gateway.start({mode: "web", supervisor: new EngineSupervisor(), connections: ConnectionStore.inMemory(), vault: new MemoryKeyVault(), rendererDir, appDataDir});
console.log(JSON.stringify({url: gateway.url, token: gateway.token}));
for await (const _line of createInterface({input: process.stdin})) console.log(JSON.stringify({addons: (globalThis as {loadedAddons?: string[]}).loadedAddons ?? null}));
await gateway.close({stopEngine: false});
