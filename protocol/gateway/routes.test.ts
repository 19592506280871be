import {test} from "node:test";
import assert from "node:assert/strict";
import {createGatewayClient, gatewayPath, gatewayRoutes, matchGatewayRoute} from "./routes.ts";

test("every route matches its own path and method, parameters included", () => {
    for (const [name, route] of Object.entries(gatewayRoutes)) {
        const path = gatewayPath(name as keyof typeof gatewayRoutes, {id: "a b.gguf", key: "svc-studio-theme", port: "41234"});
        assert.deepEqual(matchGatewayRoute(route.method, path)?.name, name, path);
    }
    assert.deepEqual(matchGatewayRoute("POST", "/models/qwen%20x.gguf/default"), {name: "setDefault", params: {id: "qwen%20x.gguf"}});
});

test("fixed segments win over parameters; other methods and paths match nothing", () => {
    assert.equal(matchGatewayRoute("GET", "/models/downloads")?.name, "downloads");
    assert.equal(matchGatewayRoute("POST", "/models/download")?.name, "download");
    assert.equal(matchGatewayRoute("PUT", "/state"), undefined);
    assert.equal(matchGatewayRoute("GET", "/state/x"), undefined);
    assert.equal(matchGatewayRoute("DELETE", "/connections/a/b"), undefined);
});

test("the typed client sends each call's method, encoded path, body and query", async () => {
    const sent: unknown[] = [];
    const client = createGatewayClient(async (...call) => void sent.push(call));
    await client.removeModel("a/b.gguf");
    await client.gpu(true);
    await client.setRole("svc-1-decision", null);
    await client.activateConnection("c1");
    assert.deepEqual(sent, [
        ["DELETE", "/models/a%2Fb.gguf", undefined, undefined],
        ["GET", "/models/gpu", undefined, "refresh"],
        ["POST", "/models/roles", {role: "svc-1-decision", modelId: null}, undefined],
        ["POST", "/connections/c1/activate", {}, undefined]
    ]);
});
