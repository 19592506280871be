// The renderer's saved documents (renderer/src/gateway/appData.ts) against a real gateway and its database: two windows
// of the app are two instances of the module (each its own cache, revisions and note), sharing one gateway. Each
// write names the revision it is based on; a window whose write another window's has overtaken keeps its copy and
// asks which to keep, never retrying on its own; a save that failed stays reported until that document is saved.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {ConnectionStore} from "../../electron/connections/ConnectionStore.ts";
import {EngineSupervisor} from "../../electron/engine/EngineSupervisor.ts";
import {Gateway} from "../../electron/gateway/Gateway.ts";
import {MemoryKeyVault} from "../../electron/secrets/KeyVault.ts";
import {eventually as retried} from "../ui/utils/expect.ts";

/** Waits for `assertion` to hold, long enough for a machine busy with other tests. */
const eventually = (assertion: () => unknown) => retried(assertion, {timeoutMs: 60_000});

type AppDataModule = typeof import("../../renderer/src/gateway/appData.ts");

let dir: string;
let gateway: Gateway;
/** Requests to these documents fail as a dropped connection would. */
const unreachable = new Set<string>();
let reloads = 0;

before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "svc-document-revisions-"));
    gateway = await Gateway.start({mode: "web", supervisor: new EngineSupervisor(), connections: ConnectionStore.inMemory(), vault: new MemoryKeyVault(),
        rendererDir: dir, appDataDir: path.join(dir, "app-data")});
    // What the page has and Node lacks: its origin (the gateway's) and credential (the launch token stands in for the
    // session cookie), its listeners, reload.
    const realFetch = globalThis.fetch;
    Object.assign(globalThis, {
        fetch: (input: string, init: RequestInit = {}) => {
            const url = new URL(input, gateway.url);
            const key = /\/app-data\/documents\/([^/?]+)/.exec(url.pathname)?.[1];
            if (key !== undefined && unreachable.has(decodeURIComponent(key))) return Promise.reject(new TypeError("Failed to fetch"));
            return realFetch(url, {...init, headers: {...init.headers as Record<string, string>, "x-gateway-token": gateway.token}});
        },
        document: {addEventListener: () => undefined, visibilityState: "visible"},
        addEventListener: () => undefined,
        location: {reload: () => reloads++}
    });
});
after(async () => {
    await gateway.close({stopEngine: false});
    await rm(dir, {recursive: true, force: true});
});

/** A new window of the app: its own instance of the module, its documents loaded from the gateway. */
async function openWindow(name: string): Promise<AppDataModule> {
    const window = await import(`../../renderer/src/gateway/appData.ts?window=${name}`) as AppDataModule;
    await window.loadAppData();
    return window;
}

/** What the gateway holds for `key` (undefined: nothing). */
async function stored(key: string): Promise<unknown> {
    const response = await fetch("/gateway/api/app-data/documents");
    return ((await response.json()) as {documents: Record<string, unknown>}).documents[key];
}

/** Changes a document in `window` as a persisted store does, and sends it now. */
function edit(window: AppDataModule, key: string, value: unknown, closing = false) {
    window.appDataStorage.setItem(key, JSON.stringify(value));
    window.flushAppData(closing);
}

const noteOf = (window: AppDataModule) => window.useAppDataStatus.getState();

test("two windows edit one document: the second one's write is refused, it keeps its copy and offers to reload or keep its own", async () => {
    const key = "svc-studio-question-set";
    const windowA = await openWindow("a");
    edit(windowA, key, {state: {name: "first"}});
    await eventually(async () => assert.deepEqual(await stored(key), {state: {name: "first"}}));

    const windowB = await openWindow("b");
    edit(windowA, key, {state: {name: "from A"}});
    await eventually(async () => assert.deepEqual(await stored(key), {state: {name: "from A"}}));
    edit(windowB, key, {state: {name: "from B"}});
    await eventually(() => assert.ok(noteOf(windowB).problems[`conflict:${key}`] !== undefined, JSON.stringify(noteOf(windowB).problems)));
    assert.equal(noteOf(windowB).problems[`conflict:${key}`],
        "Another window changed the question set: reload to take its version, or keep yours (this window's version replaces it).");
    assert.deepEqual(noteOf(windowB).actions[`conflict:${key}`].map((action) => action.label), ["Reload (take its version)", "Keep mine"]);
    assert.deepEqual(await stored(key), {state: {name: "from A"}}, "A's write is not overwritten");
    assert.equal(windowB.appDataStorage.getItem(key), JSON.stringify({state: {name: "from B"}}), "B keeps its copy");

    // B goes on editing: nothing is sent, it is not retried behind the user's back.
    edit(windowB, key, {state: {name: "from B, edited"}});
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(await stored(key), {state: {name: "from A"}});

    // Reload takes A's version (the page reloads and reads the documents again).
    noteOf(windowB).actions[`conflict:${key}`][0].run();
    assert.equal(reloads, 1);
    // Keep mine: B's copy is sent, based on the revision the gateway holds now.
    noteOf(windowB).actions[`conflict:${key}`][1].run();
    await eventually(async () => assert.deepEqual(await stored(key), {state: {name: "from B, edited"}}));
    assert.equal(noteOf(windowB).problems[`conflict:${key}`], undefined, "the note is gone");

    // Now A is the one behind.
    edit(windowA, key, {state: {name: "from A again"}});
    await eventually(() => assert.ok(noteOf(windowA).problems[`conflict:${key}`] !== undefined));
    assert.deepEqual(await stored(key), {state: {name: "from B, edited"}});
});

test("one window's own writes never conflict, even when a closing page's write overtakes the one before it", async () => {
    const key = "svc-studio-presets";
    const window = await openWindow("c");
    for (let round = 0; round < 10; round++) {
        edit(window, key, {state: {round, step: "first"}});
        edit(window, key, {state: {round, step: "second"}}, true);
    }
    await eventually(async () => assert.deepEqual(await stored(key), {state: {round: 9, step: "second"}}));
    assert.deepEqual(noteOf(window).problems, {});
});

test("a save that failed stays reported until that document is saved, whatever else is saved meanwhile", async () => {
    const window = await openWindow("d");
    unreachable.add("svc-studio-theme");
    edit(window, "svc-studio-theme", {state: {theme: "light"}});
    await eventually(() => assert.match(noteOf(window).problems.settings ?? "", /^Your changes to the theme could not be saved in the app's data folder \(Failed to fetch\)/));
    // Another document is saved: the theme is still not, and the note says so.
    edit(window, "svc-studio-code-key", {state: {key: "python"}});
    await eventually(async () => assert.deepEqual(await stored("svc-studio-code-key"), {state: {key: "python"}}));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.match(noteOf(window).problems.settings ?? "", /the theme could not be saved/);
    // The theme is sent again with the next change, and saved: the note goes.
    unreachable.delete("svc-studio-theme");
    edit(window, "svc-studio-theme", {state: {theme: "dark"}});
    await eventually(async () => assert.deepEqual(await stored("svc-studio-theme"), {state: {theme: "dark"}}));
    await eventually(() => assert.equal(noteOf(window).problems.settings, undefined));
});
