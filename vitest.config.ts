import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Three projects: `unit` is the inner loop (in-process tests that take
 * seconds: `npx vitest run --project unit`); `integration` spawns tsc,
 * vitest, node servers or HTTP transports, or runs the CLI over whole
 * projects. `npm test` runs both. Before any integration test starts, its
 * global setup (test/typecheck/setup.ts) builds the fixtures that tsc checks
 * and runs one tsc program per TypeScript version and option set over them.
 */
const INTEGRATION = [
  // Mocks modules (vi.mock) to count reads: needs a module cache of its own, which the unit project (isolate off) does not give.
  "test/plan/reads-once.test.ts",
  "test/cache/**/*.test.ts",
  "test/cli/init.test.ts",
  "test/cli/init-view.test.ts",
  "test/cli/watch.test.ts",
  "test/cli/check.test.ts",
  "test/cli/config.test.ts",
  "test/compiler/diagnostics.test.ts",
  "test/compiler/golden.test.ts",
  "test/compiler/second-corpus.test.ts",
  "test/compiler/typecheck.test.ts",
  "test/contract-tests/consumer.test.ts",
  "test/contract-tests/generated.test.ts",
  "test/contract-tests/handlers.test.ts",
  "test/diff/cli.test.ts",
  "test/diff/differential.test.ts",
  "test/diff/done-when.test.ts",
  "test/diff/lifecycle-e2e.test.ts",
  "test/diff/proof.test.ts",
  "test/evals/promptfoo.test.ts",
  "test/docs/cli.test.ts",
  "test/e2e/**/*.test.ts",
  "test/codemode/sandbox-*.test.ts",
  "test/emit/types/soundness.test.ts",
  "test/emit/index-reexports.test.ts",
  "test/fuzz/**/*.test.ts",
  "test/import/corpus.test.ts",
  "test/import/mapping.test.ts",
  "test/import/openapi/corpus.test.ts",
  "test/import/openapi/e2e.test.ts",
  "test/import/openapi/handlers.test.ts",
  "test/import/openapi/hostile-handlers.test.ts",
  "test/import/openapi/real-world.test.ts",
  "test/mcp-conformance/conformance.test.ts",
  "test/otel/consumer.test.ts",
  "test/providers/sdk-types.test.ts",
  "test/providers/deferred-github.test.ts",
  "test/runtime/transports.test.ts",
  "test/soundness/**/*.test.ts",
  "test/targets/mcpb-bundle.test.ts",
  "test/apps/serve.test.ts",
  "test/apps/view-types.test.ts",
  "test/apps/demo-view.test.ts",
];

/** Tests that drive a real browser (test/helpers/chromium.ts). */
const BROWSER = ["test/docs/browser.test.ts", "test/apps/browser.test.ts", "test/apps/demo.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One fast-check seed for every property (FUZZ_SEED picks another): a failure replays exactly.
    setupFiles: ["test/setup/fast-check.ts"],
    // One worker per core, not vitest's default of one fewer (a single worker on two cores): integration
    // tests spend much of their time waiting on the processes they start (vitest, servers, the Inspector).
    maxWorkers: availableParallelism(),
    projects: [
      // Unit files share their worker's module cache (isolate off): importing the compiler, Ajv and the
      // SDK again for each file was more than half the project's CPU time. The files keep no state between
      // them: no globals are patched, and every mock and timer is restored by the test that set it.
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["**/node_modules/**", ...INTEGRATION, ...BROWSER], isolate: false } },
      { extends: true, test: { name: "integration", include: INTEGRATION, globalSetup: ["test/typecheck/setup.ts"] } },
      // Real Chromium (Debian's, which .ci/run installs) on the catalog's pages; no tsc fixtures needed.
      { extends: true, test: { name: "browser", include: BROWSER } },
    ],
  },
});
