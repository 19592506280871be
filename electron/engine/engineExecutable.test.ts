import assert from "node:assert/strict";
import {test} from "node:test";
import {engineExecutable} from "./engineExecutable.ts";

test("on macOS the engine runs on the app's Helper (no second Dock icon), elsewhere on the app's executable", () => {
    const main = "/Applications/Svc Studio.app/Contents/MacOS/Svc Studio";
    const helper = "/Applications/Svc Studio.app/Contents/Frameworks/Svc Studio Helper.app/Contents/MacOS/Svc Studio Helper";
    assert.equal(engineExecutable(main, "darwin", (file) => file === helper), helper);
    assert.equal(engineExecutable(main, "darwin", () => false), main, "a bundle without the helper falls back to the main executable");
    assert.equal(engineExecutable("/opt/Svc Studio/svc-studio", "linux", () => true), "/opt/Svc Studio/svc-studio");
    assert.equal(engineExecutable("C:\\Program Files\\Svc Studio\\Svc Studio.exe", "win32", () => true), "C:\\Program Files\\Svc Studio\\Svc Studio.exe");
});
