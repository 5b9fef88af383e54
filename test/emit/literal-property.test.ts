/**
 * Property names, descriptions and values are untrusted text from YAML (and
 * the config), and reach contracts.ts, providers.ts, tools/<name>.ts,
 * chunks/<name>.ts, the validators, the contract tests, index.ts and http.ts
 * as keys, strings and JSDoc. For arbitrary names and descriptions (weighted
 * towards quotes, backslashes, `__proto__` inside a longer name, comment
 * terminators, backticks, `${`, line separators) and arbitrary JSON values
 * in `default`, `examples`, `const` and `enum`, each emitted module must
 * parse with TypeScript's own parser, and the data it carries must evaluate
 * to exactly the normalized schema, server defaults and auth settings.
 */
import fc from "fast-check";
import ts from "typescript";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import type { AuthSetting } from "../../generator/config/auth.js";
import { hasErrors } from "../../generator/diagnostics.js";
import { emitContractTests } from "../../generator/emit/contract-tests.js";
import { emitContractsModule } from "../../generator/emit/contracts-module.js";
import { emitHttpModule } from "../../generator/emit/http-module.js";
import { emitIndexModule } from "../../generator/emit/index-module.js";
import { literal } from "../../generator/printer/literal.js";
import { emitProvidersModule } from "../../generator/emit/providers/module.js";
import { emitToolModule } from "../../generator/emit/tool-module.js";
import { emitValidators } from "../../generator/emit/validators.js";
import type { JsonValue } from "../../generator/ir.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import * as providersRuntime from "../../generator/runtime/providers.js";
import * as contractRuntime from "../../generator/runtime/contract.js";
import { runs, timeoutFor } from "../fuzz/config.js";

/** Pieces that have broken literal and comment writers: quotes before `__proto__`, escapes, comment ends, template syntax, line separators. */
const AWKWARD = ['x"__proto__', '"__proto__":', "__proto__\\", '\\"', "*/", "/*", "\u2028", "\u2029", "${", "`", "\n  \"k\": 1", "'", "</script>"];

const text = fc.oneof(
  { arbitrary: fc.array(fc.oneof(fc.constantFrom(...AWKWARD), fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("")), weight: 3 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }), weight: 1 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 12 }), weight: 1 },
);

/** `__proto__` itself is refused at load as any key (TC003, tested with the loader); every other name is a property like any other. */
const propertyName = text.filter((name) => name !== "__proto__" && name.length > 0);

/** JSON values whose keys and strings are as awkward as the names (JSON has no -0, and YAML would keep it). */
const jsonValue: fc.Arbitrary<JsonValue> = fc
  .letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(propertyName, tie("value"), { maxKeys: 3 }),
    ),
  }))
  .value.map((v) => JSON.parse(JSON.stringify(v)) as JsonValue);

/** JSON text with object keys sorted: two values toolc's equality calls equal give the same text. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

/** A property's schema: a bounded string, or a value in one of the keywords that hold data. */
const propertySchema = fc.oneof(
  fc.constant({ type: "string", maxLength: 10 }),
  jsonValue.map((value) => ({ const: value })),
  fc.uniqueArray(jsonValue, { minLength: 1, maxLength: 3, selector: canonical }).map((values) => ({ enum: values })),
  jsonValue.map((value) => ({ default: value })),
  fc.array(jsonValue, { minLength: 1, maxLength: 2 }).map((values) => ({ examples: values })),
);

const serverDefaults = fc.record({ name: text, version: text }).map(({ name, version }) => ({ name, version }));
const authSetting: fc.Arbitrary<AuthSetting> = fc.record({
  defaultScopes: fc.constant([]),
  server: fc.record({
    resource: text,
    authorizationServers: fc.array(text, { maxLength: 3 }),
    algorithms: fc.array(text, { maxLength: 2 }),
    clockToleranceSec: fc.nat(),
    // Not from YAML here, so `__proto__` can be a key: the literal must keep it an own property.
    impliedScopes: fc.dictionary(fc.oneof(text, fc.constant("__proto__")), fc.array(text, { maxLength: 2 }), { maxKeys: 3 }),
    resourceName: text,
  }),
}).map((auth) => JSON.parse(JSON.stringify(auth)) as AuthSetting); // plain objects, a `__proto__` key still an own property

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

/** The value of the module-level constant `name` (not exported), evaluated from its initializer as parsed. */
function constantValue(source: string, name: string): unknown {
  const file = ts.createSourceFile("m.ts", source, ts.ScriptTarget.ES2022, true);
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const declaration = statement.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name);
    if (declaration?.initializer !== undefined) return new Function(`return (${declaration.initializer.getText(file)});`)();
  }
  throw new Error(`no constant ${name}`);
}

function contractYaml(names: readonly string[], descriptions: readonly string[], toolDescription: string, schemas: readonly object[] = [{ type: "string", maxLength: 10 }]): string {
  const properties = Object.fromEntries(names.map((name, i) => [name, { ...schemas[i % schemas.length], description: descriptions[i % descriptions.length] }]));
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

/** Every module a one-tool project gets parses; the data in contracts.ts, providers.ts, index.ts and http.ts is what was given. */
function checkProject(names: readonly string[], schemas: readonly object[], descriptions: readonly string[], toolDescription: string, server: { name: string; version: string }, auth: AuthSetting): void {
  const loaded = loadDefinitionsFromTexts([{ source: "probe.yaml", display: "probe.yaml", text: contractYaml(names, descriptions, toolDescription, schemas) }]);
  const { ir, diagnostics } = normalize(loaded);
  expect(hasErrors(diagnostics), diagnostics.map((d) => d.message).join("\n")).toBe(false);
  const tool = ir.tools[0]!;
  const header = "// Generated by toolc from probe.yaml. DO NOT EDIT.";
  const [contracts, providers, index, http] = [emitContractsModule(ir), emitProvidersModule(ir), emitIndexModule(ir, server), emitHttpModule(auth)];
  for (const file of [contracts, providers, index, http, emitToolModule(tool), ...emitValidators(tool, header), emitContractTests(tool)]) {
    expect(syntaxErrors(file.text, file.path), file.path).toEqual([]);
  }
  const contractExports = evaluate(contracts.text, { "./runtime/contract.js": contractRuntime });
  const contract = contractExports["probeContract"] as Record<string, unknown>;
  expect(contract["inputSchema"]).toStrictEqual(tool.inputSchema);
  expect(contract["outputSchema"]).toStrictEqual(tool.outputSchema);
  expect(contract["description"]).toBe(tool.description);
  const providerExports = evaluate(providers.text, { "./contracts.js": contractExports, "./runtime/providers.js": providersRuntime });
  const gemini = providerExports["gemini"] as { functionDeclarations: { parametersJsonSchema?: { properties?: object } }[] };
  // In the order any object with these keys has them: integer-like names ("0") come first in JavaScript.
  const keyOrder = Object.keys(Object.fromEntries(names.map((name) => [name, true])));
  expect(Object.keys(gemini.functionDeclarations[0]?.parametersJsonSchema?.properties ?? {})).toEqual(keyOrder);
  const indexExports = evaluate(index.text, { "./contracts.js": contractExports, "./runtime/api.js": {}, "./runtime/dispatch.js": {} });
  expect((indexExports["contracts"] as Record<string, unknown>)["probe"]).toBe(contract);
  expect(constantValue(index.text, "serverDefaults")).toStrictEqual(server);
  expect(constantValue(http.text, "authDefaults")).toStrictEqual(auth.server);
}

describe("emitted modules with arbitrary names, descriptions and values", () => {
  const count = runs(4);

  it(
    "every module emitted for the project parses, and its data evaluates to the normalized schemas, the server defaults and the auth settings",
    () => {
      fc.assert(
        fc.property(
          fc.uniqueArray(propertyName, { minLength: 1, maxLength: 4 }),
          fc.array(propertySchema, { minLength: 1, maxLength: 4 }),
          fc.array(text.filter((d) => d.trim().length > 0), { minLength: 1, maxLength: 3 }),
          text.filter((d) => d.trim().length > 0),
          serverDefaults,
          authSetting,
          checkProject,
        ),
        { numRuns: count },
      );
    },
    timeoutFor(count, 40),
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
