import assert from "node:assert/strict";
import {mkdir, mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, before, test} from "node:test";
import {sse, startTestServer} from "../../test/support/startTestServer.ts";
import {ensureTinyGguf} from "../../test/fixtures/gguf/ensureTinyGguf.ts";
import {ConnectionStore} from "../connections/ConnectionStore.ts";
import {EngineSupervisor} from "../engine/EngineSupervisor.ts";
import {Gateway} from "./Gateway.ts";
import type {GatewayState} from "../../protocol/gateway/contract.ts";
import {KeyVault, MemoryKeyVault} from "../secrets/KeyVault.ts";
import {gatewayRequest, type GatewayAnswer} from "../../test/support/gateway/gatewayRequest.ts";
import {safeStorageDouble} from "../../test/support/gateway/safeStorageDouble.ts";
import {freePort, holdPort} from "../../test/support/ports.ts";
import {firstEnginePort} from "../engine/enginePort.ts";

const remoteKey = "ck_test123";
const tinyModel = await ensureTinyGguf();
const dir = await mkdtemp(path.join(os.tmpdir(), "svc-gateway-"));
const rendererDir = path.join(dir, "renderer");
const localEngine = new EngineSupervisor({modelPath: tinyModel, threads: 1, gpu: "off"});
const remoteEngine = new EngineSupervisor({modelPath: tinyModel, threads: 1, gpu: "off", apiKeys: [remoteKey]});
let gateway: Gateway;
/** Every body the gateway sent back, searched at the end for the remote key. */
const answers: GatewayAnswer[] = [];

before(async () => {
    await mkdir(path.join(rendererDir, "assets"), {recursive: true});
    await writeFile(path.join(rendererDir, "index.html"),
        `<!doctype html><html><head lang="en"><title>t</title></head><body><script type="module" src="/assets/app-1a2b.js"></script></body></html>`);
    await writeFile(path.join(rendererDir, "assets", "app-1a2b.js"), "console.log('renderer');\n");
    await Promise.all([localEngine.start(), remoteEngine.start()]);
    gateway = await Gateway.start({
        mode: "electron",
        supervisor: localEngine,
        connections: await ConnectionStore.open(path.join(dir, "connections.json")),
        vault: await KeyVault.open({filePath: path.join(dir, "keys.json"), backend: safeStorageDouble()}),
        rendererDir
    });
});

after(async () => {
    await Promise.all([gateway?.close(), remoteEngine.stop(), localEngine.stop()]);
    await rm(dir, {recursive: true, force: true});
});

/** A call as the renderer makes it: our Host, the token, JSON. */
async function call(pathname: string, options: {method?: string, headers?: Record<string, string>, body?: unknown} = {}) {
    const answer = await gatewayRequest(gateway.url.replace(/\/$/, "") + pathname, {
        ...options,
        headers: {"x-gateway-token": gateway.token, ...options.headers}
    });
    answers.push(answer);
    return answer;
}

async function state(): Promise<GatewayState> {
    const answer = await call("/gateway/api/state");
    assert.equal(answer.status, 200);
    return JSON.parse(answer.body);
}

const chatBody = {model: "svc-1", messages: [{role: "user", content: "Hello"}], max_tokens: 4};

test("API routes need the per-launch token; the 403 carries no CORS header", async () => {
    assert.match(gateway.token, /^[0-9a-f]{64}$/);
    for (const [pathname, token] of [["/gateway/api/state", undefined], ["/gateway/api/state", "0".repeat(64)], ["/local/svc-1/v1/models", undefined], ["/remote/svc-1/v1/models", "wrong"]] as const) {
        const answer = await gatewayRequest(gateway.url.replace(/\/$/, "") + pathname, {headers: token == null ? {} : {"x-gateway-token": token}});
        answers.push(answer);
        assert.equal(answer.status, 403, pathname);
        assert.deepEqual(JSON.parse(answer.body).error.code, "invalid_gateway_token");
        assert.equal(JSON.parse(answer.body).error.type, "authentication_error");
        assert.equal(answer.headers["access-control-allow-origin"], undefined);
    }
});

test("only our own loopback Host is served (DNS-rebinding guard)", async () => {
    for (const pathname of ["/", "/gateway/api/state"]) {
        const answer = await call(pathname, {headers: {host: `evil.example:${gateway.port}`}});
        assert.equal(answer.status, 403, pathname);
        assert.equal(JSON.parse(answer.body).error.code, "invalid_host");
    }
    assert.equal((await call("/", {headers: {host: "127.0.0.2:" + gateway.port}})).status, 403);
    assert.equal((await call("/gateway/api/state", {headers: {host: `localhost:${gateway.port}`}})).status, 200);
});

test("the renderer is served with the CSP and holds no credential; assets need no token", async () => {
    const page = await gatewayRequest(gateway.url);
    assert.equal(page.status, 200);
    assert.match(page.headers["content-type"]!, /^text\/html/);
    assert.ok(page.body.startsWith(`<!doctype html><html><head lang="en"><title>t</title></head>`), "the page as built, nothing added");
    assert.ok(!page.body.includes(gateway.token), "the launch token is in no page");
    assert.equal(page.headers["set-cookie"], undefined, "a page without the token in its address signs no one in");
    const csp = page.headers["content-security-policy"] as string;
    for (const directive of ["default-src 'self'", "script-src 'self'", "connect-src 'self'", "worker-src 'self' blob:"])
        assert.ok(csp.includes(directive), directive);
    assert.equal(page.headers["cache-control"], "no-store");

    const asset = await gatewayRequest(gateway.url + "assets/app-1a2b.js");
    assert.equal(asset.status, 200);
    assert.match(asset.headers["content-type"]!, /^text\/javascript/);
    assert.equal(asset.body, "console.log('renderer');\n");

    const route = await gatewayRequest(gateway.url + "playground/chat");
    assert.ok(route.body.includes("app-1a2b.js") && !route.body.includes(gateway.token), "client-side routes get index.html, without the token");
    assert.equal((await gatewayRequest(gateway.url + "assets/missing.js")).status, 404);
    assert.equal((await gatewayRequest(gateway.url + "..%2f..%2fconnections.json")).status, 404);
    assert.equal((await gatewayRequest(gateway.url + "%2e%2e/connections.json")).status, 404);
});

test("the sign-in address sets an HttpOnly, SameSite=Strict session cookie and redirects to the page without the token; API calls take the cookie", async () => {
    assert.equal(gateway.signInUrl, `${gateway.url}?token=${gateway.token}`);
    const wrong = await gatewayRequest(`${gateway.url}?token=${"0".repeat(64)}`);
    assert.equal(wrong.status, 403);
    assert.equal(JSON.parse(wrong.body).error.code, "invalid_gateway_token");
    assert.equal(wrong.headers["set-cookie"], undefined);

    const signIn = await gatewayRequest(gateway.signInUrl);
    assert.equal(signIn.status, 302);
    assert.equal(signIn.headers.location, "/");
    assert.equal(signIn.body, "");
    const [setCookie] = signIn.headers["set-cookie"]!;
    const {name, value} = gateway.sessionCookie();
    assert.equal(setCookie, `${name}=${value}; Path=/; HttpOnly; SameSite=Strict`);
    assert.equal(name, `svc-gateway-${gateway.port}`, "one cookie per gateway port: browsers share cookies across a host's ports");
    assert.notEqual(value, gateway.token, "the cookie is a secret of its own");
    const deep = await gatewayRequest(`${gateway.url}playground/chat?tab=2&token=${gateway.token}`);
    assert.equal(deep.headers.location, "/playground/chat?tab=2", "the other query parameters stay");

    const cookie = `other=1; ${name}=${value}`;
    const withCookie = await gatewayRequest(gateway.url + "gateway/api/state", {headers: {cookie}});
    assert.equal(withCookie.status, 200, withCookie.body);
    const ownPage = {cookie, origin: gateway.url.replace(/\/$/, ""), "sec-fetch-site": "same-origin"};
    assert.equal((await gatewayRequest(gateway.url + "local/svc-1/v1/chat/completions", {headers: ownPage, body: chatBody})).status, 200);
    for (const headers of [{}, {cookie: `${name}=${"0".repeat(64)}`}, {cookie: `svc-gateway-1=${value}`}] as Array<Record<string, string>>) {
        const refused = await gatewayRequest(gateway.url + "gateway/api/state", {headers});
        assert.equal(refused.status, 403, JSON.stringify(headers));
        assert.equal(JSON.parse(refused.body).error.code, "invalid_gateway_token");
        assert.match(JSON.parse(refused.body).error.message, /open the address the app printed at start/);
    }
    // Another local origin (127.0.0.1 on another port is the same site, so the browser sends the cookie) is refused.
    for (const headers of [{cookie, origin: "http://127.0.0.1:9"}, {cookie, "sec-fetch-site": "same-site"}, {cookie, "sec-fetch-site": "cross-site"}] as Array<Record<string, string>>) {
        const refused = await gatewayRequest(gateway.url + "gateway/api/engine/stop", {method: "POST", headers});
        assert.equal(refused.status, 403, JSON.stringify(headers));
        assert.equal(JSON.parse(refused.body).error.code, "cross_origin_request");
    }
    assert.equal(gateway.state().engine.status, "running");
});

test("state reports the running engine, the local profile and the mode", async () => {
    const current = await state();
    assert.equal(current.mode, "electron");
    assert.equal(current.engine.status, "running");
    assert.equal(current.engine.model, tinyModel);
    assert.equal(current.engine.pid, localEngine.status().pid);
    assert.equal(current.engine.threads, 1);
    assert.equal(current.engine.gpu, false);
    // Only the renderer (holding the launch token) reads it, to show scripts where the local engine listens.
    assert.equal(current.engine.url, localEngine.status().url);
    assert.equal("restarts" in current.engine, false);
    assert.deepEqual(current.connections, [{id: "local", kind: "local", name: "Local engine", hasKey: false}]);
    assert.equal(current.activeConnectionId, "local");
});

test("/local forwards a chat completion to the engine child", async () => {
    const answer = await call("/local/svc-1/v1/chat/completions", {body: chatBody, headers: {"x-client-trace-id": "trace-local-1"}});
    assert.equal(answer.status, 200, answer.body);
    const completion = JSON.parse(answer.body);
    assert.equal(completion.object, "chat.completion");
    assert.equal(completion.model, "svc-1");
    assert.ok(completion.usage.completion_tokens >= 1 && completion.usage.completion_tokens <= 4);
    assert.ok(completion.usage.prompt_tokens > 0);
    assert.equal(answer.headers["x-client-trace-id"], "trace-local-1");
    assert.match(answer.headers["server-timing"] as string, /dur=/);
    assert.equal(answer.headers["access-control-allow-origin"], undefined, "the engine's CORS header is not relayed");

    const models = await call("/local/svc-1/v1/models");
    assert.equal(models.status, 200);
    assert.equal(JSON.parse(models.body).object, "list");
    const wrongModel = await call("/local/nope/v1/models");
    assert.equal(wrongModel.status, 404, "engine errors pass through unchanged");
    assert.equal(JSON.parse(wrongModel.body).error.code, "not_found");
});

test("/local passes a streaming completion through as SSE", async () => {
    const response = await fetch(gateway.url + "local/svc-1/v1/chat/completions", {
        method: "POST",
        headers: {"content-type": "application/json", "x-gateway-token": gateway.token},
        body: JSON.stringify({...chatBody, stream: true, stream_options: {include_usage: true}})
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type")!, /^text\/event-stream/);
    const pieces: string[] = [];
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) pieces.push(decoder.decode(read.value, {stream: true}));
    const events = pieces.join("").split("\n\n").filter((event) => event.trim() !== "").map((event) => event.replace(/^data: /, ""));
    assert.equal(events.at(-1), "[DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event));
    assert.ok(chunks.length >= 3, `role chunk, content and the end: got ${chunks.length}`);
    assert.ok(chunks.every((chunk) => chunk.object === "chat.completion.chunk"));
    assert.ok(chunks.at(-1).usage.completion_tokens > 0, "the usage chunk arrives last");
});

test("/remote needs an active remote profile", async () => {
    const answer = await call("/remote/svc-1/v1/chat/completions", {body: chatBody});
    assert.equal(answer.status, 409);
    assert.equal(JSON.parse(answer.body).error.code, "no_remote_connection");
});

test("/remote forwards to the active profile with its stored key, which never comes back", async () => {
    const remoteUrl = remoteEngine.status().url!;
    const direct = await gatewayRequest(remoteUrl + "/svc-1/v1/chat/completions", {body: chatBody});
    assert.equal(direct.status, 401, "the second engine really requires the key");
    assert.equal(JSON.parse(direct.body).error.code, "invalid_api_key");

    const added = await call("/gateway/api/connections", {body: {name: "Second engine", baseUrl: remoteUrl + "/", apiKey: remoteKey}});
    assert.equal(added.status, 201, added.body);
    const {connection} = JSON.parse(added.body);
    assert.deepEqual({...connection, id: undefined}, {id: undefined, kind: "remote", name: "Second engine", baseUrl: remoteUrl, hasKey: true});
    assert.ok(!(await readFile(path.join(dir, "connections.json"), "utf8")).includes(remoteKey), "profiles file holds no key");
    assert.ok(!(await readFile(path.join(dir, "keys.json"), "utf8")).includes(remoteKey), "key file holds it encrypted");

    const notActive = await call("/remote/svc-1/v1/models");
    assert.equal(notActive.status, 409, "added is not active yet");
    // An experiment's variant names its saved profile: sent there with its key while another connection is active.
    const named = await call("/remote/svc-1/v1/chat/completions", {body: chatBody, headers: {"x-svc-connection": connection.id}});
    assert.equal(named.status, 200, named.body);
    const unknown = await call("/remote/svc-1/v1/models", {headers: {"x-svc-connection": "remote-none"}});
    assert.equal(JSON.parse(unknown.body).error.code, "connection_not_found");
    const activated = await call(`/gateway/api/connections/${connection.id}/activate`, {method: "POST"});
    assert.equal(activated.status, 200);
    assert.equal(JSON.parse(activated.body).activeConnectionId, connection.id);

    // A renderer-sent Authorization is dropped: the gateway's stored key is what reaches the remote.
    const viaGateway = await call("/remote/svc-1/v1/chat/completions", {body: chatBody, headers: {authorization: "Bearer ck_wrong"}});
    assert.equal(viaGateway.status, 200, viaGateway.body);
    assert.equal(JSON.parse(viaGateway.body).object, "chat.completion");

    const current = await state();
    assert.deepEqual(current.connections.find((profile) => profile.id === connection.id),
        {id: connection.id, kind: "remote", name: "Second engine", baseUrl: remoteUrl, hasKey: true});
});

test("a remote profile without a key gets the remote's own 401 back", async () => {
    const added = await call("/gateway/api/connections", {body: {name: "No key", baseUrl: remoteEngine.status().url}});
    assert.equal(added.status, 201);
    const {connection} = JSON.parse(added.body);
    assert.equal(connection.hasKey, false);
    await call(`/gateway/api/connections/${connection.id}/activate`, {method: "POST"});
    const answer = await call("/remote/svc-1/v1/models");
    assert.equal(answer.status, 401);
    assert.equal(JSON.parse(answer.body).error.code, "invalid_api_key");
});

test("deleting a profile removes it and its key; the local engine becomes active", async () => {
    const keyed = (await state()).connections.find((profile) => profile.name === "Second engine")!;
    await call(`/gateway/api/connections/${keyed.id}/activate`, {method: "POST"});
    const answer = await call(`/gateway/api/connections/${keyed.id}`, {method: "DELETE"});
    assert.equal(answer.status, 200);
    const after = JSON.parse(answer.body) as GatewayState;
    assert.equal(after.activeConnectionId, "local");
    assert.equal(after.connections.some((profile) => profile.id === keyed.id), false);
    const vault = await KeyVault.open({filePath: path.join(dir, "keys.json"), backend: safeStorageDouble()});
    assert.equal(vault.has(keyed.id), false);
    assert.equal((await call("/gateway/api/connections/local", {method: "DELETE"})).status, 400);
    assert.equal((await call("/gateway/api/connections/remote-none/activate", {method: "POST"})).status, 404);
});

test("when the renderer hangs up on a stream, the upstream request is closed too", async () => {
    // A scripted upstream that streams one event and then never ends, like a long generation.
    const upstream = await startTestServer([sse(["data: {\"n\":1}\n\n"], {end: "hang"})]);
    try {
        const added = JSON.parse((await call("/gateway/api/connections", {body: {name: "Hanging", baseUrl: upstream.url}})).body);
        await call(`/gateway/api/connections/${added.connection.id}/activate`, {method: "POST"});
        const controller = new AbortController();
        const response = await fetch(gateway.url + "remote/svc-1/v1/chat/completions", {
            method: "POST",
            headers: {"content-type": "application/json", "x-gateway-token": gateway.token},
            body: JSON.stringify({...chatBody, stream: true}),
            signal: controller.signal
        });
        const first = await response.body!.getReader().read();
        assert.equal(new TextDecoder().decode(first.value), "data: {\"n\":1}\n\n");
        controller.abort();
        const closed = await Promise.race([upstream.requests[0].closed.then(() => "closed"), new Promise((resolve) => setTimeout(resolve, 5_000, "still open"))]);
        assert.equal(closed, "closed");
        await call(`/gateway/api/connections/${added.connection.id}`, {method: "DELETE"});
    } finally {
        await upstream.close();
    }
});

test("gateway API input is validated", async () => {
    const badUrl = await call("/gateway/api/connections", {body: {name: "x", baseUrl: "ftp://example.com"}});
    assert.equal(badUrl.status, 400);
    assert.match(JSON.parse(badUrl.body).error.message, /baseUrl/);
    assert.equal((await call("/gateway/api/connections", {body: {name: "x", baseUrl: "http://a.example", apiKey: "has space"}})).status, 400);
    assert.equal((await call("/gateway/api/connections", {body: "{oops"})).status, 400);
    assert.equal((await call("/gateway/api/engine/start", {body: {modelPath: 3}})).status, 400);
    assert.equal((await call("/gateway/api/nothing")).status, 404);
});

test("the remote key never appears in any gateway answer", () => {
    assert.ok(answers.length > 20);
    for (const answer of answers) {
        assert.ok(!answer.body.includes(remoteKey), answer.body.slice(0, 200));
        assert.ok(!JSON.stringify(answer.headers).includes(remoteKey));
    }
});

test("without a keyring the key is refused unless the user accepts plaintext storage", async () => {
    let asked = 0;
    let accept = false;
    const plain = await Gateway.start({
        mode: "electron",
        supervisor: new EngineSupervisor(),
        connections: ConnectionStore.inMemory(),
        vault: await KeyVault.open({filePath: path.join(dir, "plain-keys.json"), backend: safeStorageDouble("basic_text")}),
        rendererDir,
        confirmPlaintextKeyStorage: async () => {
            asked++;
            return accept;
        }
    });
    try {
        const headers = {"x-gateway-token": plain.token};
        const body = {name: "r", baseUrl: "http://127.0.0.1:9", apiKey: "ck_plain"};
        const refused = await gatewayRequest(plain.url + "gateway/api/connections", {headers, body});
        assert.equal(refused.status, 409);
        assert.equal(JSON.parse(refused.body).error.code, "insecure_key_storage");
        assert.equal(plain.state().connections.length, 1, "no profile is left behind");
        accept = true;
        const accepted = await gatewayRequest(plain.url + "gateway/api/connections", {headers, body});
        assert.equal(accepted.status, 201);
        assert.equal(JSON.parse(accepted.body).connection.hasKey, true);
        assert.equal(asked, 2);
    } finally {
        await plain.close();
    }
});

test("browser mode keeps an added key in memory; starting needs a model", async () => {
    const web = await Gateway.start({mode: "web", supervisor: new EngineSupervisor(), connections: ConnectionStore.inMemory(), vault: new MemoryKeyVault(), rendererDir});
    try {
        const noModel = await gatewayRequest(web.url + "gateway/api/engine/start", {method: "POST", headers: {"x-gateway-token": web.token}});
        assert.equal(noModel.status, 400, "no model chosen yet and none given");
        const added = await gatewayRequest(web.url + "gateway/api/connections", {headers: {"x-gateway-token": web.token}, body: {name: "m", baseUrl: "http://127.0.0.1:9", apiKey: "ck_mem"}});
        assert.equal(added.status, 201);
        assert.equal(web.state().mode, "web");
        assert.equal(web.state().connections[1].hasKey, true);
    } finally {
        await web.close();
    }
});

test("an unreadable key file: the app starts, its remote connection shows as needing its key, and the state says what was lost", async () => {
    const appDir = path.join(dir, "lost-keys");
    await mkdir(appDir);
    await writeFile(path.join(appDir, "connections.json"), JSON.stringify({version: 1, activeId: "remote-kept", remotes: [{id: "remote-kept", name: "Production", baseUrl: "http://127.0.0.1:9"}]}));
    await writeFile(path.join(appDir, "keys.json"), "");
    const app = await Gateway.start({mode: "electron", supervisor: new EngineSupervisor(), rendererDir,
        connections: await ConnectionStore.open(path.join(appDir, "connections.json")),
        vault: await KeyVault.open({filePath: path.join(appDir, "keys.json"), backend: safeStorageDouble()})});
    try {
        const answer = await gatewayRequest(app.url + "gateway/api/state", {headers: {"x-gateway-token": app.token}});
        const state = JSON.parse(answer.body) as GatewayState;
        assert.deepEqual(state.connections.find((connection) => connection.id === "remote-kept"),
            {id: "remote-kept", kind: "remote", name: "Production", baseUrl: "http://127.0.0.1:9", hasKey: false});
        assert.match(state.keysNotice!, /saved API keys could not be read .*keys\.json: it is empty.*moved to .*keys\.json\.unreadable-/);
    } finally {
        await app.close();
    }
});

test("stopping the engine makes /local a 503; a failed start is reported in the state; start brings it back", async () => {
    const stopped = await call("/gateway/api/engine/stop", {method: "POST"});
    assert.equal(JSON.parse(stopped.body).engine.status, "stopped");
    const unavailable = await call("/local/svc-1/v1/chat/completions", {body: chatBody});
    assert.equal(unavailable.status, 503);
    assert.deepEqual(Object.keys(JSON.parse(unavailable.body).error).sort(), ["code", "message", "type"]);
    assert.equal(JSON.parse(unavailable.body).error.code, "service_unavailable");
    assert.equal(JSON.parse(unavailable.body).error.type, "api_error");

    const failed = JSON.parse((await call("/gateway/api/engine/start", {body: {modelPath: path.join(dir, "missing.gguf")}})).body) as GatewayState;
    assert.equal(failed.engine.status, "crashed");
    assert.match(failed.engine.error!, /missing\.gguf/);

    const started = JSON.parse((await call("/gateway/api/engine/start", {body: {modelPath: tinyModel}})).body) as GatewayState;
    assert.equal(started.engine.status, "running");
    assert.equal((await call("/local/svc-1/v1/chat/completions", {body: chatBody})).status, 200);
});

test("the engine's port is kept in the data folder: chosen once, changed from the app, a taken one refused", async () => {
    const appDataDir = path.join(dir, "port-app-data");
    const settingsFile = path.join(appDataDir, "engine-settings.json");
    const open = (enginePort?: number) => Gateway.start({mode: "web", supervisor: new EngineSupervisor({modelPath: tinyModel, threads: 1, gpu: "off"}),
        connections: ConnectionStore.inMemory(), vault: new MemoryKeyVault(), rendererDir, appDataDir, enginePort});
    const send = (app: Gateway, port: unknown) =>
        gatewayRequest(app.url + "gateway/api/engine/port", {headers: {"x-gateway-token": app.token}, body: {port}});

    // The first launch chooses the first free port from 8081 and saves it; the next launch takes the saved one.
    const first = await open();
    const chosen = first.state().engine.port!;
    assert.ok(chosen >= firstEnginePort && chosen < firstEnginePort + 100, `chose ${chosen}`);
    assert.deepEqual(JSON.parse(await readFile(settingsFile, "utf8")), {version: 1, port: chosen});
    await first.close();
    const later = await open();
    try {
        assert.equal(later.state().engine.port, chosen, "kept across launches");
        // A change from the app moves the running engine at once and is saved.
        const port = await freePort();
        await later.supervisor.start();
        const moved = await send(later, port);
        assert.equal(moved.status, 200, moved.body);
        const state = JSON.parse(moved.body) as GatewayState;
        assert.equal(state.engine.status, "running");
        assert.equal(state.engine.url, `http://127.0.0.1:${port}`);
        assert.equal(state.engine.port, port);
        assert.deepEqual(JSON.parse(await readFile(settingsFile, "utf8")), {version: 1, port});

        // A port another program holds is refused with what to do; nothing changes.
        const taken = await holdPort(0);
        try {
            const refused = await send(later, taken.port);
            assert.equal(refused.status, 409);
            assert.equal(JSON.parse(refused.body).error.code, "port_in_use");
            assert.match(JSON.parse(refused.body).error.message, new RegExp(`port ${taken.port} on 127\\.0\\.0\\.1 is in use by another program.*choose another port`));
        } finally {
            await new Promise((resolve) => taken.close(resolve));
        }
        assert.equal(later.state().engine.url, `http://127.0.0.1:${port}`);
        assert.equal(JSON.parse(await readFile(settingsFile, "utf8")).port, port);
        for (const bad of [80, 70_000, "8090", 1.5]) assert.equal((await send(later, bad)).status, 400, String(bad));

        // Stopped, a change is for the next start, which listens there.
        await later.supervisor.stop();
        const next = await freePort();
        assert.equal(JSON.parse((await send(later, next)).body).engine.status, "stopped");
        assert.equal((await later.supervisor.start()).url, `http://127.0.0.1:${next}`);
    } finally {
        await later.close();
    }

    // A port given at launch (npm run web -- --engine-port) is for that launch only.
    const flagged = await open(0);
    assert.equal(flagged.state().engine.port, 0);
    await flagged.close();
    assert.notEqual(JSON.parse(await readFile(settingsFile, "utf8")).port, 0);
});

test("a saved engine port another program holds at launch: the engine starts on a free port, and the state shows it and says why", async () => {
    const appDataDir = path.join(dir, "taken-port-app-data");
    const settingsFile = path.join(appDataDir, "engine-settings.json");
    const taken = await holdPort(0);
    await mkdir(appDataDir, {recursive: true});
    await writeFile(settingsFile, JSON.stringify({version: 1, port: taken.port}));
    const app = await Gateway.start({mode: "web", supervisor: new EngineSupervisor({modelPath: tinyModel, threads: 1, gpu: "off"}),
        connections: ConnectionStore.inMemory(), vault: new MemoryKeyVault(), rendererDir, appDataDir});
    try {
        await app.supervisor.start();
        const read = async () => JSON.parse((await gatewayRequest(app.url + "gateway/api/state", {headers: {"x-gateway-token": app.token}})).body) as GatewayState;
        const {engine} = await read();
        assert.equal(engine.status, "running");
        assert.notEqual(engine.port, taken.port);
        assert.equal(engine.url, `http://127.0.0.1:${engine.port}`);
        assert.match(engine.portNotice!, new RegExp(`Port ${taken.port}, the local engine's saved port, is in use by another program, so the engine listens on port ${engine.port}`));
        // Local features work on the new port.
        const chat = await gatewayRequest(app.url + "local/svc-1/v1/chat/completions", {headers: {"x-gateway-token": app.token}, body: chatBody});
        assert.equal(chat.status, 200, chat.body);
        assert.deepEqual(JSON.parse(await readFile(settingsFile, "utf8")), {version: 1, port: taken.port}, "the saved port is tried again at the next launch");

        // Choosing the port the engine moved to keeps it: saved, and the notice is gone.
        const kept = await gatewayRequest(app.url + "gateway/api/engine/port", {headers: {"x-gateway-token": app.token}, body: {port: engine.port}});
        assert.equal(kept.status, 200, kept.body);
        assert.equal((JSON.parse(kept.body) as GatewayState).engine.portNotice, undefined);
        assert.equal((JSON.parse(kept.body) as GatewayState).engine.url, engine.url, "the running engine stays where it is");
        assert.deepEqual(JSON.parse(await readFile(settingsFile, "utf8")), {version: 1, port: engine.port});
    } finally {
        await app.close();
        await new Promise((resolve) => taken.close(resolve));
    }
});
