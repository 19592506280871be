// Test-only stand-in for `svc-studio serve`: announces itself like the real CLI, then dies, every time.
console.log("model fake.gguf (ChatML template), CPU, 1 threads, context 16 x 1 sequences");
console.log("listening on http://127.0.0.1:9");
setTimeout(() => {
    console.error("fake engine: simulated crash");
    process.exit(3);
}, 50);
