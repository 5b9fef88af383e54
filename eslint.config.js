// ESLint over toolc's own source (`npm run lint`): eslint's and
// typescript-eslint's recommended rules, not the type-checked set, so that
// linting stays fast.
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
  {
    ignores: ["dist/", "generated/", "test/mcp-conformance/generated/", "demo/catalog/", "node_modules/", ".tmp/", "coverage/"],
  },
  {
    files: ["generator/**/*.ts", "bin/**/*.js", "scripts/**/*.ts", "bench/**/*.ts"],
    extends: [js.configs.recommended, tseslint.configs.recommended],
  },
  {
    // bin/ runs on Node.js as an ES module.
    files: ["bin/**/*.js"],
    languageOptions: { sourceType: "module", globals: { process: "readonly", URL: "readonly" } },
  },
);
