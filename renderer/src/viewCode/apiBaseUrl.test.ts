import {test} from "node:test";
import assert from "node:assert/strict";
import type {GatewayState} from "../gateway/types.ts";
import {apiBaseUrl} from "./apiBaseUrl.ts";

const state = (active: string, engine: GatewayState["engine"] = {status: "running"}): GatewayState => ({
    engine,
    connections: [
        {id: "local", kind: "local", name: "Local engine", hasKey: false},
        {id: "r1", kind: "remote", name: "Prod", baseUrl: "https://api.example.com/", hasKey: true}
    ],
    activeConnectionId: active,
    mode: "web"
});

test("local: the engine's own URL from the gateway state, else the CLI default", () => {
    assert.equal(apiBaseUrl(state("local", {status: "running", url: "http://127.0.0.1:41234"})), "http://127.0.0.1:41234/svc-1/v1");
    assert.equal(apiBaseUrl(state("local")), "http://127.0.0.1:8080/svc-1/v1");
    assert.equal(apiBaseUrl(undefined), "http://127.0.0.1:8080/svc-1/v1");
});

test("remote: the profile's base URL plus the model path, without doubled slashes", () => {
    assert.equal(apiBaseUrl(state("r1")), "https://api.example.com/svc-1/v1");
});
