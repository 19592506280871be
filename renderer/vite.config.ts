import {fileURLToPath} from "node:url";
import react from "@vitejs/plugin-react";
import {defineConfig} from "vite";

const root = fileURLToPath(new URL("./", import.meta.url));

// The gateway serves `renderer/dist` from its own origin, so every asset path is relative (`base: "./"`)
// and nothing is fetched from a CDN: Monaco and its workers are bundled.
export default defineConfig({
    root,
    base: "./",
    plugins: [react()],
    build: {
        outDir: "dist",
        emptyOutDir: true,
        chunkSizeWarningLimit: 6000
    },
    worker: {format: "es"}
});
