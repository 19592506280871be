// The engine's browser and key policy against real processes: the engine that `npm run web` launches (a per-launch key handed down
// by environment, loopback only), the gateway's proxy against SSRF (a canary server on loopback counts the requests
// that reach it), and refused 70 MB uploads, with the `serve` child's RSS read from /proc while they are sent.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import http from "node:http";
import type {AddressInfo} from "node:net";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {gatewayRequest} from "../support/gateway/gatewayRequest.ts";
import {startWebGateway, type WebGateway} from "../ui/utils/startWebGateway.ts";
import {readGatewayState} from "../ui/utils/gatewayApi.ts";
import type {GatewayState} from "../../protocol/gateway/contract.ts";

const chatBody = {model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 2};
const uploadBytes = 70_000_000;
const mib = 1024 * 1024;

let gateway: WebGateway;
let token: string;
let engineUrl: string;
let enginePid: number;
let engineKey: string;
let canary: http.Server;
let canaryPort: number;
let canaryHits = 0;

before(async () => {
    gateway = await startWebGateway({model: await ensureTinyGguf()});
    let state: GatewayState;
    ({token, state} = await readGatewayState(gateway));
    assert.equal(state.engine.status, "running");
    engineUrl = state.engine.url!;
    enginePid = state.engine.pid!;
    canary = http.createServer((_req, res) => {
        canaryHits++;
        res.end("canary");
    });
    await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
    canaryPort = (canary.address() as AddressInfo).port;
});

after(async () => {
    await gateway?.stop();
    await new Promise((resolve) => canary?.close(resolve));
});

/** `/proc/<pid>/environ` or `cmdline`: NUL-separated strings. */
function procStrings(pid: number, file: "environ" | "cmdline"): string[] {
    return readFileSync(`/proc/${pid}/${file}`, "utf8").split("\0").filter((entry) => entry !== "");
}

function rssBytes(pid: number): number {
    return Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
}

describe("the engine launched by npm run web", () => {
    test("listens on loopback, requires its per-launch key, which is in its environment and not on its command line", async () => {
        assert.match(engineUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
        const argv = procStrings(enginePid, "cmdline");
        assert.deepEqual(argv.slice(argv.indexOf("--host"), argv.indexOf("--host") + 2), ["--host", "127.0.0.1"]);
        assert.equal(argv.includes("--api-key"), false, argv.join(" "));
        const fromEnv = procStrings(enginePid, "environ").find((entry) => entry.startsWith("SVC_STUDIO_ENGINE_KEY="));
        assert.ok(fromEnv != null, "the key is handed down in the environment");
        engineKey = fromEnv.slice("SVC_STUDIO_ENGINE_KEY=".length);
        assert.match(engineKey, /^[0-9a-f]{64}$/);
        assert.ok(!argv.join(" ").includes(engineKey));

        for (const authorization of [undefined, "Bearer ck_guess", "Bearer "]) {
            const refused = await gatewayRequest(engineUrl + "/svc-1/v1/chat/completions", {body: chatBody, headers: authorization ? {authorization} : {}});
            assert.equal(refused.status, 401);
            assert.equal(JSON.parse(refused.body).error.code, "invalid_api_key");
        }
        const direct = await gatewayRequest(engineUrl + "/svc-1/v1/chat/completions", {body: chatBody, headers: {authorization: `Bearer ${engineKey}`}});
        assert.equal(direct.status, 200, direct.body);

        // The gateway adds the key itself; the page never holds it.
        const proxied = await gatewayRequest(gateway.url + "/local/svc-1/v1/chat/completions", {body: chatBody, headers: {"x-gateway-token": token}});
        assert.equal(proxied.status, 200, proxied.body);
        const state = await gatewayRequest(gateway.url + "/gateway/api/state", {headers: {"x-gateway-token": token}});
        assert.ok(!state.body.includes(engineKey), "the state sent to the page holds no key");
    });
});

describe("the gateway's /local and /remote proxies", () => {
    test("forward no crafted path to another host: the canary counts zero hits", async (t) => {
        const elsewhere = `127.0.0.1:${canaryPort}`;
        const probes = [`//${elsewhere}/x`, `/\\${elsewhere}/x`, `/\\\\${elsewhere}/x`, `/%2f%2f${elsewhere}/x`, `/%2F%2F${elsewhere}/x`,
            `/%5c%5c${elsewhere}/x`, `/svc-1/..//${elsewhere}/x`, `/svc-1/%2e%2e//${elsewhere}/x`, `/./svc-1/v1/models`];
        for (const prefix of ["/local", "/remote"])
            for (const probe of probes)
                for (const method of ["GET", "POST"]) {
                    const answer = await gatewayRequest(gateway.url, {
                        method, path: prefix + probe, headers: {"x-gateway-token": token}, body: method === "POST" ? chatBody : undefined
                    });
                    assert.equal(answer.status, 400, `${method} ${prefix}${probe}: ${answer.body}`);
                    assert.equal(JSON.parse(answer.body).error.code, "invalid_path");
                }
        assert.equal(canaryHits, 0);
        t.diagnostic(`${2 * 2 * probes.length} probes, canary hits: ${canaryHits}`);

        // Controls: a plain path still goes through, and the canary does count what reaches it.
        assert.equal((await gatewayRequest(gateway.url + "/local/svc-1/v1/models", {headers: {"x-gateway-token": token}})).status, 200);
        assert.equal(await (await fetch(`http://${elsewhere}/x`)).text(), "canary");
        assert.equal(canaryHits, 1);
    });
});

type UploadResult = {status?: number, code?: string, written: number, ms: number, rssGrowth: number};

/**
 * Sends `uploadBytes` of JSON whitespace as a hostile client would: as fast as the socket takes it, without stopping
 * when the answer comes (only a closed connection stops it), while the engine's RSS is sampled every 5 ms.
 */
async function hostileUpload(headers: Record<string, string>, path = "/svc-1/v1/chat/completions"): Promise<UploadResult> {
    const baseline = rssBytes(enginePid);
    let peak = baseline;
    const sampler = setInterval(() => peak = Math.max(peak, rssBytes(enginePid)), 5);
    const startedAt = performance.now();
    const chunk = Buffer.alloc(mib, 0x20);
    let written = 0;
    const answer = await new Promise<{status?: number, code?: string}>((resolve) => {
        const {hostname, port} = new URL(engineUrl);
        const req = http.request({host: hostname, port, method: "POST", path, headers: {"content-type": "application/json", ...headers}});
        let reply: {status?: number, body: string} = {body: ""};
        const settle = () => {
            let code: string | undefined;
            try {
                code = JSON.parse(reply.body).error.code;
            } catch {
                code = undefined;
            }
            resolve({status: reply.status, code});
        };
        req.on("response", (res) => {
            reply = {status: res.statusCode, body: ""};
            res.setEncoding("utf8");
            res.on("data", (text: string) => reply.body += text);
        });
        req.on("close", settle);
        req.on("error", () => undefined);
        const pump = () => {
            while (written < uploadBytes && !req.destroyed) {
                const piece = chunk.subarray(0, Math.min(chunk.length, uploadBytes - written));
                written += piece.length;
                if (!req.write(piece)) return void req.once("drain", pump);
            }
            if (!req.destroyed) req.end();
        };
        pump();
    });
    // The last samples: whatever the refusal left behind.
    await new Promise((resolve) => setTimeout(resolve, 200));
    clearInterval(sampler);
    return {...answer, written, ms: performance.now() - startedAt, rssGrowth: peak - baseline};
}

describe("refused uploads are not read", () => {
    const describeUpload = (result: UploadResult) =>
        `${result.status} ${result.code}: handed ${(result.written / mib).toFixed(1)} MiB to the socket in ${result.ms.toFixed(0)} ms, ` +
        `engine RSS +${(result.rssGrowth / mib).toFixed(2)} MiB`;

    test("70 MB without a key (chunked, so only the key check can stop it): 401, RSS grows < 5 MiB", async (t) => {
        const result = await hostileUpload({"transfer-encoding": "chunked"});
        t.diagnostic(describeUpload(result));
        assert.equal(result.status, 401);
        assert.equal(result.code, "invalid_api_key");
        assert.ok(result.rssGrowth < 5 * mib, describeUpload(result));
        assert.ok(result.written < uploadBytes, "the connection was closed before the upload ended");
    });

    test("70 MB declared by Content-Length over the 64 MiB limit, with the key: 413, RSS grows < 5 MiB", async (t) => {
        assert.ok(engineKey != null, "the key test ran first");
        const result = await hostileUpload({"content-length": String(uploadBytes), "authorization": `Bearer ${engineKey}`});
        t.diagnostic(describeUpload(result));
        assert.equal(result.status, 413);
        assert.equal(result.code, "payload_too_large");
        assert.ok(result.rssGrowth < 5 * mib, describeUpload(result));
        assert.ok(result.written < uploadBytes, "the connection was closed before the upload ended");
    });

    test("70 MB chunked with the key stops at the limit (8 MiB on decisions): 413, and the rest is not read", async (t) => {
        const result = await hostileUpload({"transfer-encoding": "chunked", "authorization": `Bearer ${engineKey}`}, "/svc-1-decision/v1/decisions");
        t.diagnostic(describeUpload(result));
        assert.equal(result.status, 413);
        assert.equal(result.code, "payload_too_large");
        assert.ok(result.written < uploadBytes / 2, describeUpload(result));
    });

    test("the engine serves as before afterwards", async () => {
        const health = await gatewayRequest(engineUrl + "/health");
        assert.equal(health.status, 200);
        const chat = await gatewayRequest(gateway.url + "/local/svc-1/v1/chat/completions", {body: chatBody, headers: {"x-gateway-token": token}});
        assert.equal(chat.status, 200, chat.body);
    });
});
