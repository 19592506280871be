// Lint rules shared by every room; the import-direction rules keep ARCHITECTURE.md's layering true.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

// Type-only imports obey the same directions as value imports: a room knows another room's types only where it may
// import its code (the renderer knows the gateway through protocol/gateway, not through electron/).
const forbid = (patterns, message) => ["error", {patterns: patterns.map((pattern) => ({group: [pattern], message}))}];
const rooms = ["protocol", "native", "client", "electron", "renderer", "test"];
const outside = (...allowed) => rooms.filter((room) => !allowed.includes(room)).map((room) => `**/${room}/**`);
const tests = ["**/*.test.ts", "**/*.test.tsx"];
const nodeOnly = ["node:*", "fs", "path", "os", "child_process", "http", "https", "stream", "crypto", "**/base/node/**", "@photostructure/sqlite", "node-llama-cpp"];

export default tseslint.config(
    {ignores: ["node_modules/**", "dist/**", "out/**", "renderer/dist/**", "test-artifacts/**", ".fixtures/**", ".scratch/**"]},
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        languageOptions: {globals: {...globals.node, ...globals.browser}},
        rules: {
            "@typescript-eslint/no-unused-vars": ["error", {argsIgnorePattern: "^_", varsIgnorePattern: "^_"}],
            "@typescript-eslint/no-explicit-any": "off"
        }
    },
    // Room rules hold for product code; tests beside it may also use Node's test runner and test/'s doubles and fixtures.
    {files: ["base/**"], ignores: tests, rules: {"@typescript-eslint/no-restricted-imports": forbid(outside(), "base is the shared leaf room: it imports no other room")}},
    {files: ["base/common/**"], ignores: tests, rules: {"@typescript-eslint/no-restricted-imports": forbid([...outside(), ...nodeOnly], "base/common runs in browsers too: no Node modules")}},
    {files: ["protocol/**"], ignores: tests, rules: {"@typescript-eslint/no-restricted-imports": forbid([...outside("protocol"), ...nodeOnly], "protocol depends on base/common only, and runs anywhere")}},
    {files: ["client/**"], ignores: tests, rules: {"@typescript-eslint/no-restricted-imports": forbid(outside("client", "protocol"), "client depends on protocol only")}},
    {files: ["native/**"], ignores: tests, rules: {"@typescript-eslint/no-restricted-imports": forbid(outside("native", "protocol"), "native depends on protocol only")}},
    {files: ["renderer/**"], ignores: [...tests, "renderer/vite.config.ts"], rules: {"@typescript-eslint/no-restricted-imports": forbid([...outside("renderer", "client", "protocol"), ...nodeOnly], "renderer talks to the gateway through client and protocol/gateway only")}},
    {files: ["electron/**"], ignores: tests, rules: {"@typescript-eslint/no-restricted-imports": forbid(outside("electron", "native", "client", "protocol"), "nothing imports renderer")}}
);
