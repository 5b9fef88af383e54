/**
 * Property names and descriptions are untrusted text from YAML, and reach
 * contracts.ts, providers.ts, tools/<name>.ts, copies/<name>.ts, the
 * validators and the contract tests as keys, strings and JSDoc.
 * For arbitrary names and descriptions (quotes, backslashes, `__proto__`
 * inside a longer name, comment terminators, line separators), each emitted
 * file must parse with TypeScript's own parser, and the contract data must
 * evaluate to exactly the normalized schema.
 */
import fc from "fast-check";
import ts from "typescript";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { hasErrors } from "../../generator/diagnostics.js";
import { emitContractTests } from "../../generator/emit/contract-tests.js";
import { emitContractsModule } from "../../generator/emit/contracts-module.js";
import { emitCopies } from "../../generator/emit/copies.js";
import { literal } from "../../generator/emit/literal.js";
import { emitProvidersModule } from "../../generator/emit/providers/module.js";
import { emitToolModule } from "../../generator/emit/tool-module.js";
import { emitValidators } from "../../generator/emit/validators.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import * as providersRuntime from "../../generator/runtime/providers.js";
import { runs, timeoutFor } from "../fuzz/config.js";

/** Pieces that have broken literal writers: quotes before `__proto__`, escapes, comment ends, line separators. */
const AWKWARD = ['x"__proto__', '"__proto__":', "__proto__\\", '\\"', "*/", "/*", "\u2028", "\u2029", "${", "`", "\n  \"k\": 1", "'", "</script>"];

const text = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.array(fc.oneof(fc.constantFrom(...AWKWARD), fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("")),
);

/** `__proto__` itself is refused at load (TC003, tested with the loader); every other name is a property like any other. */
const propertyName = text.filter((name) => name !== "__proto__" && name.length > 0);

/** Syntax errors TypeScript's parser reports for `source`, as text. */
function syntaxErrors(source: string, fileName: string): string[] {
  const result = ts.transpileModule(source, { fileName, reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
  return (result.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

/** Evaluates a module transpiled to CommonJS; `modules` answers its value imports. */
function evaluate(source: string, modules: Record<string, unknown>): Record<string, unknown> {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exports: Record<string, unknown> = {};
  const require = (specifier: string): unknown => {
    if (!Object.hasOwn(modules, specifier)) throw new Error(`unexpected import ${specifier}`);
    return modules[specifier];
  };
  new Function("exports", "require", js)(exports, require);
  return exports;
}

function contractYaml(names: readonly string[], descriptions: readonly string[], toolDescription: string): string {
  const properties = Object.fromEntries(names.map((name, i) => [name, { type: "string", maxLength: 10, description: descriptions[i % descriptions.length] }]));
  return stringify({
    name: "probe",
    version: 1,
    description: toolDescription,
    effect: "read",
    input: { type: "object", properties, required: names.slice(0, 1) },
    output: { type: "object", properties, additionalProperties: false },
  });
}

/** The modules of a one-tool project whose text holds the tool's property names. */
function emittedModules(yaml: string): { path: string; text: string }[] {
  const { ir, diagnostics } = normalize(loadDefinitionsFromTexts([{ source: "probe.yaml", display: "probe.yaml", text: yaml }]));
  expect(hasErrors(diagnostics), diagnostics.map((d) => d.message).join("\n")).toBe(false);
  return [emitContractsModule(ir), emitProvidersModule(ir), emitToolModule(ir.tools[0]!)];
}

describe("emitted modules for awkward property names", () => {
  it.each([['x"__proto__'], ['"__proto__":'], ["a\\\"__proto__"]])("a property named %j: contracts.ts, providers.ts and the tool's types parse", (name) => {
    for (const file of emittedModules(contractYaml([name, "plain"], ["a description"], "A tool."))) expect(syntaxErrors(file.text, file.path), file.path).toEqual([]);
  });
});

describe("emitted literals with arbitrary names and descriptions", () => {
  const count = runs(4);

  it(
    "every module emitted for the tool parses, and contracts.ts and providers.ts evaluate to the normalized schemas",
    () => {
      fc.assert(
        fc.property(
          fc.uniqueArray(propertyName, { minLength: 1, maxLength: 4 }),
          fc.array(text.filter((d) => d.trim().length > 0), { minLength: 1, maxLength: 3 }),
          text.filter((d) => d.trim().length > 0),
          (names, descriptions, toolDescription) => {
            const loaded = loadDefinitionsFromTexts([{ source: "probe.yaml", display: "probe.yaml", text: contractYaml(names, descriptions, toolDescription) }]);
            const { ir, diagnostics } = normalize(loaded);
            expect(hasErrors(diagnostics), diagnostics.map((d) => d.message).join("\n")).toBe(false);
            const tool = ir.tools[0]!;
            const contracts = emitContractsModule(ir).text;
            const providers = emitProvidersModule(ir).text;
            expect(syntaxErrors(contracts, "contracts.ts")).toEqual([]);
            expect(syntaxErrors(providers, "providers.ts")).toEqual([]);
            const header = "// Generated by toolc from probe.yaml. DO NOT EDIT.";
            for (const file of [emitToolModule(tool), emitCopies(tool, header), ...emitValidators(tool, header), emitContractTests(tool)]) {
              expect(syntaxErrors(file.text, file.path), file.path).toEqual([]);
            }
            const contractExports = evaluate(contracts, {});
            const contract = contractExports["probeContract"] as Record<string, unknown>;
            expect(contract["inputSchema"]).toStrictEqual(tool.inputSchema);
            expect(contract["outputSchema"]).toStrictEqual(tool.outputSchema);
            expect(contract["description"]).toBe(tool.description);
            const providerExports = evaluate(providers, { "./contracts.js": contractExports, "./runtime/providers.js": providersRuntime });
            const gemini = providerExports["gemini"] as { functionDeclarations: { parametersJsonSchema?: { properties?: object } }[] };
            // In the order any object with these keys has them: integer-like names ("0") come first in JavaScript.
            const keyOrder = Object.keys(Object.fromEntries(names.map((name) => [name, true])));
            expect(Object.keys(gemini.functionDeclarations[0]?.parametersJsonSchema?.properties ?? {})).toEqual(keyOrder);
          },
        ),
        { numRuns: count },
      );
    },
    timeoutFor(count, 20),
  );

  it("literal parses and evaluates to the value, for any JSON value with any keys", () => {
    const keyed = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, fc.jsonValue({ maxDepth: 1 }), fc.array(tie("value"), { maxLength: 3 }), fc.dictionary(fc.oneof(text, fc.constant("__proto__")), tie("value"), { maxKeys: 3 })),
    })).value;
    fc.assert(
      fc.property(keyed, (value) => {
        const json = JSON.parse(JSON.stringify(value)) as unknown;
        const source = `export const value = ${literal(json)};\n`;
        expect(syntaxErrors(source, "value.ts")).toEqual([]);
        const back = evaluate(source, {})["value"];
        expect(back).toStrictEqual(json);
        expect(JSON.stringify(back)).toBe(JSON.stringify(json));
      }),
      { numRuns: runs() },
    );
  });
});
