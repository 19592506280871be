// Test-only: saves one document into an app-data folder, says so once the save has answered, then waits to be killed
// (SIGKILL: no close, no checkpoint), so its parent can check that what the answer promised is on disk.
//   node --import tsx saveThenWait.ts <dir>
import {AppDataStore} from "../../../electron/appData/AppDataStore.ts";

const [dir] = process.argv.slice(2);
await new AppDataStore(dir).documents.put("last-save", {saved: "before the kill"});
console.log("saved");
setInterval(() => undefined, 60_000);
