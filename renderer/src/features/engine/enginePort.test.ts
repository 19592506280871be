import assert from "node:assert/strict";
import {test} from "node:test";
import {readPortInput} from "./enginePort.ts";

test("a port is 0 or 1024 to 65535; anything else is refused in words", () => {
    assert.deepEqual(readPortInput(" "), {kind: "empty"});
    assert.deepEqual(readPortInput("8081"), {kind: "port", port: 8081});
    assert.deepEqual(readPortInput(" 0 "), {kind: "port", port: 0});
    assert.deepEqual(readPortInput("65535"), {kind: "port", port: 65535});
    for (const text of ["80", "1023", "65536", "80a", "-1", "8081.5", "123456"])
        assert.deepEqual(readPortInput(text), {kind: "invalid", message: "The port must be 0 (a free port at every start) or a whole number from 1024 to 65535."}, text);
});
