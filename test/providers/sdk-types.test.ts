/**
 * The provider exports type-check against the official SDKs (openai,
 * @anthropic-ai/sdk, @google/genai, ai; devDependencies only), at their
 * latest majors and at the previous ones a Node.js 20 project installs,
 * with real tsc 5.9, 6.0 and 7.0 under every strict flag (the global setup's
 * `providers` program, test/typecheck/checks.ts), for the demo and for a
 * project of more tools than GitHub's REST API (many-tools.ts), and
 * generated code imports none of them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../compiler/helpers.js";
import { TYPESCRIPTS } from "../helpers/typescripts.js";
import { providerFiles, SNIPPETS } from "../typecheck/checks.js";
import { tscOutput, typecheckFixture } from "../typecheck/fixtures.js";
import { MANY_TOOLS } from "./many-tools.js";

describe.each(TYPESCRIPTS)("TypeScript $version", ({ version }) => {
  it("assigns every provider export to its SDK type, and every run result to what the SDK's next request takes", () => {
    expect(tscOutput("providers", version, "sdk-assign")).toBe("");
  });

  it("assigns every provider export to the previous majors' types too (openai 6, ai 6, @google/genai 2)", () => {
    expect(typecheckFixture("providersPrevious").versions).toEqual({
      openai: expect.stringMatching(/^6\./),
      ai: expect.stringMatching(/^6\./),
      "@google/genai": expect.stringMatching(/^2\./),
    });
    expect(tscOutput("providers", version, "sdk-assign-previous")).toBe("");
  });

  it("assigns the Agents SDK function tools (deferLoading included) to @openai/agents' FunctionTool, beside its toolSearchTool()", () => {
    expect(tscOutput("providers", version, "agents-assign")).toBe("");
  });

  it("compiles the provider modules under every strict flag, erasableSyntaxOnly included", () => {
    expect(tscOutput("providers", version, "provider-modules")).toBe("");
  });

  it("rejects an export assigned to another provider's type (the check can fail)", () => {
    expect(tscOutput("providers", version, "wrong-provider")).toMatch(/wrong\.ts\(3,14\): error TS2322/);
  });

  it("gives a project whose tool names some providers refuse a providers.ts that compiles under every strict flag", () => {
    // The global setup generated test/fixtures/billing into a project of its own.
    const billing = typecheckFixture("providersBilling");
    expect(billing.code).toBe(0);
    expect(billing.stderr).toContain("warning TC072: tool name `billing.list-invoices` does not match OpenAI's");
    expect(tscOutput("providers", version, "billing")).toBe("");
  });

  it(`gives a project of ${MANY_TOOLS} tools, each of its own type, a providers.ts that compiles and assigns to the SDK types`, () => {
    // A literal array of that many different tools would be more than TypeScript's union of their types can hold (TS2590).
    const many = typecheckFixture("providersMany");
    expect(many.code).toBe(0);
    expect(many.stdout).toContain(`${MANY_TOOLS} tools compiled`);
    expect(tscOutput("providers", version, "many-tools")).toBe("");
  });
});

it("generated code imports none of the provider SDKs", async () => {
  const files = await providerFiles();
  expect(files).toEqual(expect.arrayContaining(["generated/providers.ts", "generated/runtime/providers.ts"]));
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), "utf8");
    expect(text).not.toMatch(/from "(openai|@anthropic-ai\/sdk|@google\/genai|ai)(\/[^"]*)?"/);
  }
  expect(readFileSync(join(ROOT, "generated/index.ts"), "utf8")).not.toContain("providers");
});

it("docs/providers.md's agent loops are the type-checked snippet files, verbatim", () => {
  const blocks = [...readFileSync(join(ROOT, "docs/providers.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  const loops = blocks.slice(1).map((block) => block.replaceAll('"./generated/', '"../../../generated/'));
  expect(loops).toHaveLength(SNIPPETS.length);
  loops.forEach((loop, i) => {
    const snippet = readFileSync(join(ROOT, "test/providers/snippets", `${SNIPPETS[i]}.ts`), "utf8");
    for (const line of loop.split("\n")) expect(snippet).toContain(line);
  });
});
