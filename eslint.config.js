// Lint rules shared by every room; the import-direction rules keep DEVELOPERS.md's layering true.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

// Type-only imports are allowed across rooms (the renderer knows the preload API by its type only).
const forbid = (patterns, message) => ["error", {patterns: patterns.map((pattern) => ({group: [pattern], message, allowTypeImports: true}))}];

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
    {files: ["protocol/**"], rules: {"@typescript-eslint/no-restricted-imports": forbid(["**/native/**", "**/client/**", "**/renderer/**", "**/electron/**", "node-llama-cpp"], "protocol depends on nothing")}},
    {files: ["client/**"], rules: {"@typescript-eslint/no-restricted-imports": forbid(["**/native/**", "**/renderer/**", "**/electron/**", "node-llama-cpp"], "client depends on protocol only")}},
    {files: ["native/**"], rules: {"@typescript-eslint/no-restricted-imports": forbid(["**/client/**", "**/renderer/**", "**/electron/**"], "native depends on protocol only")}},
    {files: ["renderer/**"], rules: {"@typescript-eslint/no-restricted-imports": forbid(["**/native/**", "**/electron/**", "node-llama-cpp"], "renderer talks to the gateway through client only")}},
    {files: ["electron/**"], rules: {"@typescript-eslint/no-restricted-imports": forbid(["**/renderer/**"], "nothing imports renderer")}}
);
