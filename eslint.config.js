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
    rules: {
      // A leading underscore marks a name left unused on purpose: a property
      // taken out of an object by rest destructuring (`const { $ref: _ref,
      // ...rest } = node`), or a parameter an interface requires.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The runtime is copied byte for byte into every project (and committed
    // twice, in generated/runtime/ and test/mcp-conformance/generated/runtime/),
    // so its deliberate patterns are allowed here rather than changed there:
    // `any` in the conditional types that infer a contract's parameters, and
    // a comma expression in a loop body.
    // (contract.ts's own eslint-disable line for AnyToolContract stays, unreported.)
    files: ["generator/runtime/contract.ts"],
    linterOptions: { reportUnusedDisableDirectives: "off" },
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["generator/runtime/sdk2/auth.ts"],
    rules: { "@typescript-eslint/no-unused-expressions": "off" },
  },
  {
    // bin/ runs on Node.js as an ES module.
    files: ["bin/**/*.js"],
    languageOptions: { sourceType: "module", globals: { process: "readonly", URL: "readonly" } },
  },
);
