/**
 * The provider exports type-check against the official SDKs (openai,
 * @anthropic-ai/sdk, @google/genai, ai; devDependencies only), with real
 * tsc under every strict flag, and generated code imports none of them.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../compiler/helpers.js";
import { TYPESCRIPTS, typecheck } from "./tsc.js";

const STRICTEST = {
  lib: ["ES2023", "DOM"],
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
};

/** The agent loops of docs/providers.md, one file each, in the document's order. */
const SNIPPETS = ["openai", "anthropic", "gemini", "ai-sdk"];

const PROVIDER_FILES = ["generated/providers.ts", "generated/runtime/providers.ts", "generated/runtime/provider-nulls.ts"];

describe.each(TYPESCRIPTS)("TypeScript $version", ({ bin }) => {
  it("assigns every provider export to its SDK type, and every run result to what the SDK's next request takes", () => {
    expect(typecheck(bin, [join(ROOT, "test/providers/sdk-assign.ts"), ...SNIPPETS.map((s) => join(ROOT, "test/providers/snippets", `${s}.ts`))], STRICTEST)).toBe("");
  });

  it("compiles the provider modules under erasableSyntaxOnly too", () => {
    const output = typecheck(bin, [join(ROOT, "generated/providers.ts")], { ...STRICTEST, erasableSyntaxOnly: true });
    // Other runtime files are the build's concern; none of the provider modules may appear.
    for (const file of PROVIDER_FILES) expect(output).not.toContain(file);
  });
});

it("rejects an export assigned to another provider's type (the check can fail)", () => {
  // Inside the project, so the SDKs resolve and the file is an ES module; not under test/, so the project's own type check skips it.
  const dir = join(ROOT, "node_modules/.cache/toolc-sdk-negative");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "wrong.ts");
  writeFileSync(file, `import type Anthropic from "@anthropic-ai/sdk";\nimport { openai } from "../../../generated/providers.js";\nexport const wrong: Anthropic.Tool[] = openai.tools;\n`);
  const [typescript] = TYPESCRIPTS;
  expect(typecheck(typescript!.bin, [file], STRICTEST)).toMatch(/wrong\.ts\(3,14\): error TS2322/);
});

it("generated code imports none of the provider SDKs", () => {
  for (const file of PROVIDER_FILES) {
    const text = readFileSync(join(ROOT, file), "utf8");
    expect(text).not.toMatch(/from "(openai|@anthropic-ai\/sdk|@google\/genai|ai)(\/[^"]*)?"/);
  }
  expect(readFileSync(join(ROOT, "generated/index.ts"), "utf8")).not.toContain("providers");
});

it("docs/providers.md's agent loops are the type-checked snippet files, verbatim", () => {
  const blocks = [...readFileSync(join(ROOT, "docs/providers.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  const loops = blocks.slice(1).map((block) => block.replaceAll('"./generated/providers.js"', '"../../../generated/providers.js"'));
  expect(loops).toHaveLength(SNIPPETS.length);
  loops.forEach((loop, i) => {
    const snippet = readFileSync(join(ROOT, "test/providers/snippets", `${SNIPPETS[i]}.ts`), "utf8");
    for (const line of loop.split("\n")) expect(snippet).toContain(line);
  });
});

it("a project whose tool names some providers refuse still gets a providers.ts that compiles under every strict flag", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolc-providers-billing-"));
  cpSync(join(ROOT, "test/fixtures/billing"), join(dir, "definitions"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const generated = await runCli(dir, ["generate"]);
  expect(generated.code).toBe(0);
  expect(generated.stderr).toContain("warning TC072: tool name `billing.list-invoices` does not match OpenAI's");
  const [typescript] = TYPESCRIPTS;
  expect(typecheck(typescript!.bin, [join(dir, "generated/providers.ts")], STRICTEST)).toBe("");
});
