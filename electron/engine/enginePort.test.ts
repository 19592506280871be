import assert from "node:assert/strict";
import {test} from "node:test";
import {freePort, holdPort} from "../../test/support/ports.ts";
import {checkPort, firstFreePort} from "./enginePort.ts";

test("a port another program listens on is in use; the first free port skips it", async () => {
    const held = await holdPort(0);
    try {
        assert.equal(await checkPort(held.port), "in_use");
        const next = await firstFreePort(held.port, 20);
        assert.ok(next > held.port && next < held.port + 20, `chose ${next}`);
        assert.equal(await checkPort(next), "free");
    } finally {
        await new Promise((resolve) => held.close(resolve));
    }
    assert.equal(await checkPort(await freePort()), "free");
});
