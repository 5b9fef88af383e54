/**
 * The contract-test emitter on its own: minimal values and pattern samples,
 * the handlers import path, what the emitted file imports, and that it is
 * deterministic and free of run-time derivation.
 */
import { describe, expect, it } from "vitest";
import { emitContractTests, handlersSpecifier } from "../../generator/emit/contract-tests.js";
import { SchemaChecker } from "../../generator/emit/contract-tests/checker.js";
import { contractCases } from "../../generator/emit/contract-tests/cases.js";
import { minimalValue } from "../../generator/emit/contract-tests/minimal.js";
import { samplePattern } from "../../generator/emit/contract-tests/pattern.js";
import type { JsonObject, JsonValue } from "../../generator/ir.js";
import { demoTools } from "./project.js";
import { toolFileName } from "../../generator/emit/ts-names.js";

describe("samplePattern", () => {
  it.each([
    ["^ord_[A-Za-z0-9]+$", 0, "ord_A"],
    ["^[A-Z]{3}$", 0, "AAA"],
    ["^(?:foo|bar)-\\d{2}$", 0, "foo-00"],
    ["^v\\.[0-9]*$", 0, "v."],
    ["ab", 4, "abaa"],
  ])("%s (minLength %i) → %s", (pattern, minLength, sample) => {
    expect(samplePattern(pattern, minLength)).toBe(sample);
  });

  it.each([["^[^a]$"], ["^(?=a)a$"], ["^\\p{L}$"], ["^a$|^b{2,"], ["^ab$"]])("gives up on %s rather than guess", (pattern) => {
    // The last one is sampled fine but cannot reach minLength 3: anchored, so it cannot be padded.
    expect(samplePattern(pattern, 3)).toBeUndefined();
  });
});

describe("minimalValue", () => {
  const rows: [string, JsonObject, JsonValue | undefined][] = [
    ["a string at its minLength", { type: "string", minLength: 2 }, "aa"],
    ["a format sample", { type: "string", format: "uuid" }, "00000000-0000-4000-8000-000000000000"],
    ["a number at its bound", { type: "integer", minimum: 3, maximum: 9 }, 3],
    ["past an exclusive bound", { type: "number", exclusiveMinimum: 5 }, 6],
    ["a multiple", { type: "integer", minimum: 5, multipleOf: 4 }, 8],
    // 3 * 0.1 is 0.30000000000000004, which is no multiple of 0.1 by its decimal digits.
    ["a decimal multiple, written in decimals", { type: "number", minimum: 0.3, multipleOf: 0.1 }, 0.3],
    ["a decimal multiple above a bound", { type: "number", minimum: 0.061, multipleOf: 0.01 }, 0.07],
    ["below a maximum", { type: "integer", maximum: -2 }, -2],
    ["a non-null value for a nullable type", { type: ["null", "boolean"] }, false],
    ["the first enum value", { enum: ["b", "a"] }, "b"],
    ["only required properties", { type: "object", properties: { a: { type: "string" }, b: { type: "boolean" } }, required: ["b"], additionalProperties: false }, { b: false }],
    ["an array at minItems", { type: "array", items: { const: 1 }, minItems: 2 }, [1, 1]],
    ["the first branch that validates", { anyOf: [{ type: "string", pattern: "^[^x]$" }, { type: "integer", minimum: 1 }] }, 1],
    ["nothing for an impossible schema", { type: "string", minLength: 3, maxLength: 1 }, undefined],
  ];
  it.each(rows)("%s", (_title, schema, expected) => {
    const checker = new SchemaChecker(schema, false);
    const value = minimalValue(checker, schema);
    expect(value).toEqual(expected);
    if (value !== undefined) expect(checker.valid(value)).toBe(true);
  });

  it("follows $ref and stops on a recursive type", () => {
    const schema: JsonObject = {
      $ref: "#/$defs/Node",
      $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } }, required: ["next"] } },
    };
    expect(minimalValue(new SchemaChecker(schema, false), schema)).toBeUndefined();
  });
});

describe("handlersSpecifier", () => {
  it.each([
    ["../../src/handlers.ts", "../../src/handlers.js"],
    ["../../src/handlers.mts", "../../src/handlers.mjs"],
    ["../../src/handlers.js", "../../src/handlers.js"],
    ["../../src/handlers", "../../src/handlers.js"],
    ["handlers.ts", "./handlers.js"],
    ["./tests/../handlers.tsx", "./handlers.js"],
  ])("%s → %s", (module, specifier) => {
    expect(handlersSpecifier(module)).toBe(specifier);
  });
});

/** The module specifiers a TS file imports from. */
function importedModules(text: string): string[] {
  return [...text.matchAll(/^import [^;]*? from "([^"]+)";/gms)].map((m) => m[1]).sort();
}

describe("emitContractTests", () => {
  const tools = demoTools();

  it("imports only vitest, the generated index and the runtime's contract-test helper", () => {
    for (const tool of tools) {
      const { path, root, text } = emitContractTests(tool);
      expect([root, path]).toEqual(["tests", `${toolFileName(tool)}.test.ts`]);
      expect(importedModules(text)).toEqual(["../index.js", "../runtime/contract-tests.js", "vitest"]);
    }
  });

  it("is data: one call of the runtime's helper with the case table, and no test code of its own", () => {
    for (const tool of tools) {
      const text = emitContractTests(tool).text;
      expect(text.match(/runContractTests\(/g)).toHaveLength(1);
      expect(text).not.toMatch(/\b(?:describe|it|expect)\(|=>|\bfunction\b|\bfor \(/);
    }
  });

  it("reaches the generated index from wherever the tests folder is", () => {
    const deep = importedModules(emitContractTests(tools[0]!, { outFromTests: "../../src/generated" }).text);
    expect(deep).toEqual(expect.arrayContaining(["../../src/generated/index.js", "../../src/generated/runtime/contract-tests.js"]));
    expect(importedModules(emitContractTests(tools[0]!, { outFromTests: "generated" }).text)).toContain("./generated/index.js");
  });

  it("with --handlers, also imports the handlers module", () => {
    const { text } = emitContractTests(tools[0]!, { handlersModule: "../../src/handlers.ts" });
    expect(importedModules(text)).toContain("../../src/handlers.js");
    expect(text).toContain('import { handlers } from "../../src/handlers.js";');
    expect(text).toContain("{ contracts, execute, createServer, handlers }");
  });

  it("is deterministic, with no clock, randomness or run-time derivation", () => {
    for (const tool of tools) {
      const text = emitContractTests(tool).text;
      expect(emitContractTests(tool).text).toBe(text);
      expect(text).not.toMatch(/Math\.random|Date\.now|new Date\(|performance\.now|deriveNegatives|minimalValue|SchemaChecker/);
    }
  });

  it("writes every derived case as a literal row", () => {
    const tool = tools.find((t) => t.name === "get_order")!;
    const text = emitContractTests(tool).text;
    for (const negative of contractCases(tool).negatives) expect(text).toContain(`name: ${JSON.stringify(negative.name)},`);
  });

  it("starts with the header naming its source", () => {
    expect(emitContractTests(tools[0]!).text).toMatch(/^\/\/ Generated by toolc [\d.]+ from [\w.]+\.yaml\. DO NOT EDIT\.\n/);
  });
});
