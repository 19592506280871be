import assert from "node:assert/strict";
import {after, test} from "node:test";
import {fileURLToPath} from "node:url";
import {isAlive} from "../../test/support/isAlive.ts";
import {ensureTinyGguf} from "../../test/fixtures/gguf/ensureTinyGguf.ts";
import {EngineSupervisor} from "./EngineSupervisor.ts";
import {waitForStatus} from "../../test/support/gateway/waitForStatus.ts";
import {freePort, holdPort} from "../../test/support/ports.ts";

const tinyModel = await ensureTinyGguf();
const crashingEngine = fileURLToPath(new URL("../../test/support/gateway/crashingEngine.mjs", import.meta.url));
const stubbornEngine = fileURLToPath(new URL("../../test/support/gateway/stubbornEngine.mjs", import.meta.url));
const supervisors: EngineSupervisor[] = [];
after(() => Promise.all(supervisors.map((supervisor) => supervisor.stop())));

function supervise(options: ConstructorParameters<typeof EngineSupervisor>[0]) {
    const supervisor = new EngineSupervisor({threads: 1, gpu: "off", ...options});
    supervisors.push(supervisor);
    return supervisor;
}

test("starts the real engine, restarts it after kill -9, and stop leaves no child", async () => {
    const supervisor = supervise({modelPath: tinyModel, restartDelayMs: 50});
    const running = await supervisor.start();
    assert.equal(running.status, "running");
    assert.equal(running.model, tinyModel);
    assert.equal(running.gpu, false);
    assert.equal(running.threads, 1);
    assert.ok(running.contextSize! > 0);
    assert.equal(running.parallel, 1);
    assert.match(running.url!, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await fetch(`${running.url}/health`)).status, 200);
    // The engine requires the supervisor's per-launch key, handed down by environment.
    const models = `${running.url}/svc-1/v1/models`;
    assert.equal((await fetch(models)).status, 401);
    assert.equal((await fetch(models, {headers: {authorization: supervisor.authorization()}})).status, 200);
    assert.match(supervisor.authorization(), /^Bearer [0-9a-f]{64}$/);

    process.kill(running.pid!, "SIGKILL");
    const crashed = await waitForStatus(supervisor, (status) => status.status === "crashed");
    assert.match(crashed.error!, /SIGKILL/);
    const restarted = await waitForStatus(supervisor, (status) => status.status === "running" && status.pid !== running.pid);
    assert.equal(restarted.restarts, 1);
    assert.equal(isAlive(running.pid!), false);
    assert.equal((await fetch(`${restarted.url}/health`)).status, 200);
    assert.equal((await fetch(`${restarted.url}/svc-1/v1/models`, {headers: {authorization: supervisor.authorization()}})).status, 200, "the restarted engine has the same key");

    await supervisor.stop();
    assert.equal(supervisor.status().status, "stopped");
    assert.equal(isAlive(restarted.pid!), false, "the engine child is gone after stop");
    await assert.rejects(fetch(`${restarted.url}/health`));
});

test("a model that cannot load fails start with the engine's message and is not restarted", async () => {
    const supervisor = supervise({modelPath: "/nonexistent/model.gguf", restartDelayMs: 10});
    await assert.rejects(supervisor.start(), /nonexistent\/model\.gguf/);
    const status = supervisor.status();
    assert.equal(status.status, "crashed");
    assert.match(status.error!, /nonexistent\/model\.gguf/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(supervisor.status().status, "crashed");
    assert.equal(supervisor.status().restarts, 0);
});

test("an engine that keeps crashing is restarted a bounded number of times with backoff", async () => {
    const supervisor = supervise({modelPath: "fake.gguf", cliPath: crashingEngine, maxRestarts: 2, restartDelayMs: 20});
    const pids = new Set<number>();
    supervisor.on("status", (status) => status.pid != null && pids.add(status.pid));
    await supervisor.start();
    const final = await waitForStatus(supervisor, (status) => status.status === "crashed" && /gave up/.test(status.error ?? ""), 20_000);
    assert.match(final.error!, /exited with code 3: fake engine: simulated crash; gave up after 2 restarts/);
    assert.equal(pids.size, 3, "the first run and two restarts");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(supervisor.status().status, "crashed", "no further restart after giving up");
});

test("stop escalates to SIGKILL when the engine ignores SIGTERM", async () => {
    const supervisor = supervise({modelPath: "fake.gguf", cliPath: stubbornEngine, stopTimeoutMs: 300});
    const {pid} = await supervisor.start();
    const startedAt = Date.now();
    await supervisor.stop();
    assert.ok(Date.now() - startedAt >= 250, "SIGTERM was given its time first");
    assert.equal(isAlive(pid!), false);
    assert.equal(supervisor.status().status, "stopped");
});

test("starting another model replaces the running engine", async () => {
    const supervisor = supervise({modelPath: "first.gguf", cliPath: stubbornEngine, stopTimeoutMs: 200});
    const first = await supervisor.start();
    const second = await supervisor.start("second.gguf");
    assert.notEqual(second.pid, first.pid);
    assert.equal(second.model, "second.gguf");
    assert.equal(isAlive(first.pid!), false);
    assert.deepEqual(await supervisor.start("second.gguf").then((status) => status.pid), second.pid, "same model: no restart");
});

test("the engine listens on the port it is given, through stop and start and a restart after a crash", async () => {
    const port = await freePort();
    const supervisor = supervise({modelPath: tinyModel, port, restartDelayMs: 50});
    assert.equal(supervisor.status().port, port);
    const first = await supervisor.start();
    assert.equal(first.url, `http://127.0.0.1:${port}`);
    assert.equal(first.port, port);
    await supervisor.stop();
    assert.equal(supervisor.status().port, port, "a stopped engine keeps its port for the next start");
    const second = await supervisor.start();
    assert.equal(second.url, `http://127.0.0.1:${port}`);
    process.kill(second.pid!, "SIGKILL");
    const restarted = await waitForStatus(supervisor, (status) => status.status === "running" && status.pid !== second.pid);
    assert.equal(restarted.url, `http://127.0.0.1:${port}`);
    assert.equal((await fetch(`${restarted.url}/health`)).status, 200);
    const moved = await freePort();
    const third = await supervisor.start(undefined, {port: moved});
    assert.notEqual(third.pid, restarted.pid, "another port restarts the engine");
    assert.equal(third.url, `http://127.0.0.1:${moved}`);
});

test("a port another program holds fails start at once, before the model loads, saying what to do", async () => {
    const taken = await holdPort(0);
    after(() => new Promise((resolve) => taken.close(resolve)));
    const port = taken.port;
    const supervisor = supervise({modelPath: tinyModel, port});
    const startedAt = Date.now();
    await assert.rejects(supervisor.start(), new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use by another program`));
    assert.ok(Date.now() - startedAt < 1_000, `refused in ${Date.now() - startedAt} ms`);
    const status = supervisor.status();
    assert.equal(status.status, "crashed");
    assert.equal(status.pid, undefined, "no engine was spawned");
    assert.match(status.error!, /choose another port for the local engine \(Engine & connections screen, Port; npm run web -- --engine-port <n>\) or close the program that holds it/);
});

test("a port taken while the engine loads is the same clear error, not the engine's raw EADDRINUSE", async () => {
    const port = await freePort();
    const supervisor = supervise({modelPath: tinyModel, port});
    let taken: ReturnType<typeof holdPort> | undefined;
    after(async () => {
        const server = await taken;
        await new Promise((resolve) => server == null ? resolve(undefined) : server.close(resolve));
    });
    // Another program takes the port after the supervisor's check, while the engine loads its model.
    supervisor.on("status", (status) => {
        if (status.status === "starting") taken ??= holdPort(port);
    });
    await assert.rejects(supervisor.start(), new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use by another program`));
    assert.equal(supervisor.status().status, "crashed");
    assert.doesNotMatch(supervisor.status().error!, /EADDRINUSE/);
});

test("a kept port another program holds: the engine listens on a free port, says so, and goes back to the kept one once it is free", async () => {
    const taken = await holdPort(0);
    const supervisor = supervise({modelPath: tinyModel});
    let released = false;
    try {
        supervisor.setPort(taken.port, {keep: true});
        const moved = await supervisor.start();
        assert.equal(moved.status, "running");
        assert.notEqual(moved.port, taken.port);
        assert.equal(moved.url, `http://127.0.0.1:${moved.port}`, "the new port is the one shown");
        assert.equal((await fetch(`${moved.url}/health`)).status, 200);
        assert.match(moved.portNotice!, new RegExp(`^Port ${taken.port}, the local engine's saved port, is in use by another program, so the engine listens on port ${moved.port} for now`));

        await new Promise((resolve) => taken.close(resolve));
        released = true;
        await supervisor.stop();
        const back = await supervisor.start();
        assert.equal(back.url, `http://127.0.0.1:${taken.port}`);
        assert.equal(back.portNotice, undefined);
    } finally {
        if (!released) await new Promise((resolve) => taken.close(resolve));
    }
});
