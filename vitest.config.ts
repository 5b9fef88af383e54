import { defineConfig } from "vitest/config";

/**
 * Two projects: `unit` is the inner loop (in-process tests, seconds:
 * `npx vitest run --project unit`); `integration` spawns tsc, vitest, node
 * servers or whole generated projects. `npm test` runs both.
 */
const INTEGRATION = [
  "test/cache/**/*.test.ts",
  "test/cli/init.test.ts",
  "test/cli/watch.test.ts",
  "test/compiler/format-workers.test.ts",
  "test/compiler/golden.test.ts",
  "test/compiler/second-corpus.test.ts",
  "test/compiler/typecheck.test.ts",
  "test/contract-tests/consumer.test.ts",
  "test/contract-tests/generated.test.ts",
  "test/contract-tests/handlers.test.ts",
  "test/e2e/**/*.test.ts",
  "test/emit/types/soundness.test.ts",
  "test/fuzz/**/*.test.ts",
  "test/import/corpus.test.ts",
  "test/soundness/**/*.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: INTEGRATION } },
      { extends: true, test: { name: "integration", include: INTEGRATION } },
    ],
  },
});
