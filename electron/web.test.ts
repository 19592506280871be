import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {once} from "node:events";
import {mkdtemp, readFile, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {createInterface} from "node:readline";
import {after, test} from "node:test";
import {fileURLToPath} from "node:url";
import type {GatewayState} from "../protocol/gateway/contract.ts";
import {describeDefaultThreads} from "../native/engine/threads.ts";
import {firstEnginePort} from "./engine/enginePort.ts";
import {readDocument} from "../test/ui/utils/readAppData.ts";

const webEntry = fileURLToPath(new URL("./web.ts", import.meta.url));
const remoteKey = "ck_env_secret_42";
// The app's saved data goes to a folder of this test, not the user's.
const dataDir = await mkdtemp(path.join(os.tmpdir(), "svc-web-data-"));

const child = spawn(process.execPath, ["--import", "tsx", webEntry, "--port", "0", "--threads", "1", "--gpu", "off", "--data-dir", dataDir], {
    // An empty model library, so a developer's own default model does not replace the built-in model here.
    env: {...process.env, SVC_MODEL: "", SVC_STUDIO_MODELS_DIR: "/nonexistent/svc-studio-test-models", SVC_REMOTE_BASE_URL: "http://127.0.0.1:9/base/", SVC_REMOTE_API_KEY: remoteKey},
    stdio: ["ignore", "pipe", "pipe"]
});
const output: string[] = [];
child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
after(async () => {
    if (child.exitCode == null) child.kill("SIGKILL");
    await rm(dataDir, {recursive: true, force: true});
});

/** The sign-in address `npm run web` prints, the gateway's URL and the launch token in it. */
const {url, token} = await new Promise<{url: string, token: string}>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed; output: ${output.join("")}`)), 30_000);
    createInterface({input: child.stdout}).on("line", (line) => {
        output.push(line + "\n");
        const match = /^Svc Studio web: (http:\/\/127\.0\.0\.1:\d+\/)\?token=([0-9a-f]{64})$/.exec(line);
        if (match != null) {
            clearTimeout(timer);
            resolve({url: match[1], token: match[2]});
        }
    });
});

test("npm run web prints a sign-in address, serves the env remote and a running engine, and stops on SIGTERM", async () => {
    // The page holds no credential, and without the session cookie every API call is refused.
    const page = await (await fetch(url)).text();
    assert.ok(page.includes("<html") && !page.includes(token), "the page does not carry the token");
    for (const refused of [await fetch(url + "gateway/api/state"), await fetch(url + "local/svc-1/v1/models")]) {
        assert.equal(refused.status, 403);
        assert.equal((await refused.json()).error.code, "invalid_gateway_token");
    }
    // Opening the printed address sets the cookie and leads to the page without the token.
    const signIn = await fetch(`${url}?token=${token}`, {redirect: "manual"});
    assert.equal(signIn.status, 302);
    assert.equal(signIn.headers.get("location"), "/");
    assert.match(signIn.headers.get("set-cookie")!, /^svc-gateway-\d+=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Strict$/);
    const headers = {cookie: signIn.headers.get("set-cookie")!.split(";")[0]};

    let state: GatewayState;
    const deadline = Date.now() + 30_000;
    do {
        const text = await (await fetch(url + "gateway/api/state", {headers})).text();
        assert.ok(!text.includes(remoteKey), "the env key never appears in the state");
        state = JSON.parse(text);
        if (state.engine.status !== "starting") break;
        await new Promise((resolve) => setTimeout(resolve, 100));
    } while (Date.now() < deadline);
    assert.equal(state.engine.status, "running", JSON.stringify(state.engine));
    assert.match(state.engine.model!, /resources[\\/]models[\\/]stories260K\.gguf$/, "the built-in model is served when none is given");
    assert.equal(output.join("").split("\n").filter((line) => line.includes("serving the built-in stories260K")).length, 1, "said once");
    assert.equal(state.mode, "web");
    // The engine's port: the first free one from 8081 at this first launch, saved in --data-dir for every later one.
    const enginePort = state.engine.port!;
    assert.ok(enginePort >= firstEnginePort && enginePort < firstEnginePort + 100, `engine port ${enginePort}`);
    assert.equal(state.engine.url, `http://127.0.0.1:${enginePort}`);
    assert.deepEqual(JSON.parse(await readFile(path.join(dataDir, "engine-settings.json"), "utf8")), {version: 1, port: enginePort});
    const envRemote = state.connections.find((profile) => profile.kind === "remote");
    assert.deepEqual({...envRemote, id: undefined}, {id: undefined, kind: "remote", name: "remote (env)", baseUrl: "http://127.0.0.1:9/base", hasKey: true});

    const completion = await fetch(url + "local/svc-1/v1/chat/completions", {
        method: "POST",
        headers: {...headers, "content-type": "application/json"},
        body: JSON.stringify({model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 2})
    });
    assert.equal(completion.status, 200);
    assert.equal((await completion.json()).object, "chat.completion");

    // What the page saves goes to --data-dir, which the start-up output names.
    const saved = await fetch(url + "gateway/api/app-data/documents/svc-studio-theme", {method: "POST", headers: {...headers, "content-type": "application/json"},
        body: JSON.stringify({state: {theme: "light"}, version: 0})});
    assert.equal(saved.status, 200, await saved.text());
    assert.deepEqual(await readDocument(dataDir, "svc-studio-theme"), {state: {theme: "light"}, version: 0}, "in --data-dir's app.sqlite");
    assert.ok(output.join("").includes(`saved data: ${dataDir}\n`), output.join(""));

    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    assert.equal(code, 0, output.join(""));
    assert.throws(() => process.kill(state.engine.pid!, 0), {code: "ESRCH"}, "the engine child is stopped with the gateway");
});

test("--help states the defaults the app uses: threads from defaultThreads, the engine's port flag", async () => {
    const help = spawn(process.execPath, ["--import", "tsx", webEntry, "--help"], {stdio: ["ignore", "pipe", "inherit"]});
    let text = "";
    help.stdout.on("data", (chunk: Buffer) => text += chunk.toString());
    await once(help, "exit");
    assert.ok(text.includes(`--threads <n>        engine threads (default ${describeDefaultThreads()})`), text);
    assert.match(text, /--engine-port <n> {4}the local engine's own port.*\n.*first free port from 8081/);
});
