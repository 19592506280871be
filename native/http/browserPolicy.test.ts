// The spellings the browser policy must get right: Host values that name the loopback, and origins as browsers send them.
import {test} from "node:test";
import assert from "node:assert/strict";
import {isLoopbackHost, normaliseOrigin} from "./browserPolicy.ts";

test("only the three loopback names pass as Host, with or without a port", () => {
    for (const host of ["127.0.0.1", "127.0.0.1:8080", "localhost", "LOCALHOST:1", "[::1]", "[::1]:65535"])
        assert.equal(isLoopbackHost(host), true, host);
    for (const host of [undefined, "", "evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.nip.io:80",
        "127.0.0.2:8080", "0.0.0.0:8080", "localhost.:8080", "[::1", "::1", "127.0.0.1:8080:1", "127.0.0.1:port", "user@localhost"])
        assert.equal(isLoopbackHost(host), false, String(host));
});

test("origins compare in one spelling; anything that is not a bare http(s) origin is refused", () => {
    assert.equal(normaliseOrigin("http://App.Example:3000"), "http://app.example:3000");
    assert.equal(normaliseOrigin("https://app.example:443/"), "https://app.example");
    assert.equal(normaliseOrigin("http://[::1]:5173"), "http://[::1]:5173");
    for (const text of ["null", "*", "file:///tmp/page.html", "http://app.example/path", "http://app.example?x=1",
        "http://user@app.example", "ftp://app.example", "app.example"])
        assert.equal(normaliseOrigin(text), undefined, text);
});
