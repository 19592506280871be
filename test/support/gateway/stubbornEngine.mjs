// Test-only stand-in for `svc-studio serve` that ignores SIGTERM, so only the supervisor's SIGKILL ends it.
process.on("SIGTERM", () => console.error("fake engine: ignoring SIGTERM"));
console.log("listening on http://127.0.0.1:9");
setInterval(() => undefined, 1_000);
