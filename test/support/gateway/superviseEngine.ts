// Test-only: a parent process, as the app's main process is, that runs the engine through EngineSupervisor and
// prints the engine's pid once it listens, then waits to be killed. Usage: superviseEngine.ts <model.gguf>
import {EngineSupervisor} from "../../../electron/engine/EngineSupervisor.ts";

const supervisor = new EngineSupervisor({modelPath: process.argv[2], threads: 1, gpu: "off"});
const status = await supervisor.start();
console.log(`engine pid ${status.pid} listening on ${status.url}`);
setInterval(() => undefined, 60_000);
