/**
 * The generated contract tests pass in a fresh consumer project that has
 * only the generated folder and its runtime dependencies: a package.json
 * listing the MCP SDK and vitest, and a node_modules holding just those
 * (symlinked, no network). toolc itself is nowhere in it, and neither is Ajv:
 * the validators import nothing from it.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { TYPESCRIPTS } from "../helpers/typescripts.js";
import { tscOutput, typecheckFixture } from "../typecheck/fixtures.js";
import { CONSUMER_PACKAGES, demoTools, expectedTestCount, runVitest, TESTS_DIR } from "./project.js";

let consumer: string;

beforeAll(() => {
  // Built once by the global setup (consumerProject in project.ts), which also type-checks it.
  consumer = typecheckFixture("consumer");
});

describe("a fresh consumer project", () => {
  it("holds only the generated folder, the contract tests, package.json and the declared packages", () => {
    expect(readdirSync(consumer).sort()).toEqual(["generated", "node_modules", "package.json", "test"]);
    expect(readdirSync(join(consumer, "node_modules")).sort()).toEqual([".bin", "@modelcontextprotocol", "vitest"]);
    expect(existsSync(join(consumer, "node_modules", "toolc"))).toBe(false);
    expect(CONSUMER_PACKAGES).toHaveLength(2);
  });

  it("runs the generated contract tests with `npx vitest run`, and they all pass", async () => {
    const result = await runVitest(consumer, ["npx", "--no", "vitest"]);
    expect(result.failed, result.output).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.total).toBe(expectedTestCount(demoTools(), false));
    expect(result.passed).toBe(result.total);
  });

  it.each(TYPESCRIPTS)("type-checks the generated tests under every strict flag with TypeScript $version", ({ version }) => {
    expect(readdirSync(join(consumer, TESTS_DIR))).toHaveLength(demoTools().length);
    expect(tscOutput("consumer", version, "consumer")).toBe("");
  });
});
