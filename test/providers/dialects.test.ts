/**
 * The provider dialects on small contracts compiled by the real load and
 * normalize phases: strict forms, what is dropped and said instead, the null
 * plans `run` applies, name and size limits, and the located warnings.
 */
import { describe, expect, it } from "vitest";
import { aiSdkEntry, objectExamples, providerCatalog, providerEntry } from "../../generator/providers/catalog.js";
import { emitProvidersModule } from "../../generator/emit/providers/module.js";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import type { Diagnostic, ToolIR } from "../../generator/ir.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { nullsToAbsent } from "../../generator/runtime/provider-nulls.js";

function compile(tools: Record<string, string>, types?: string): { tools: ToolIR[]; diagnostics: readonly Diagnostic[] } {
  const texts = Object.entries(tools).map(([name, text]) => ({ source: `${name}.yaml`, display: `defs/${name}.yaml`, text }));
  if (types !== undefined) texts.push({ source: "types.yaml", display: "defs/types.yaml", text: types });
  const { ir, diagnostics } = normalize(loadDefinitionsFromTexts(texts));
  expect(diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic)).toEqual([]);
  return { tools: [...ir.tools], diagnostics };
}

const tool = (name: string, input: string): string =>
  `name: ${name}\nversion: 1\ndescription: A tool.\neffect: read\ninput:\n${input}\noutput:\n  type: object\n`;

const TYPES = `types:
  Node:
    type: object
    properties:
      label: { type: string }
      child: { $ref: "#/types/Node" }
    required: [label]
  Address:
    type: object
    properties:
      city: { type: string }
      zip: { type: string, default: "00000" }
    required: [city]
`;

describe("OpenAI strict form", () => {
  const { tools } = compile(
    {
      ship: tool("ship", `  type: object
  properties:
    to: { $ref: "types.yaml#/Address" }
    note: { type: [string, "null"], maxLength: 10 }
    tags: { type: array, items: { type: string, format: uri }, uniqueItems: true }
    mode: { enum: [fast, slow], default: slow }
  required: [to]`),
    },
    TYPES,
  );
  const openai = providerEntry(tools[0]!).openai!;

  it("requires every property, makes optional ones nullable, and keeps nullable ones as they are", () => {
    expect(openai.strict).toBe(true);
    const props = openai.parameters["properties"] as Record<string, Record<string, unknown>>;
    expect(openai.parameters["required"]).toEqual(["to", "note", "tags", "mode"]);
    expect(props["note"]?.["type"]).toEqual(["string", "null"]);
    expect(props["mode"]).toMatchObject({ type: ["string", "null"], enum: ["fast", "slow", null] });
    expect(props["tags"]?.["type"]).toEqual(["array", "null"]);
    const address = (openai.parameters["$defs"] as Record<string, Record<string, unknown>>)["Address"]!;
    expect(address["required"]).toEqual(["city", "zip"]);
  });

  it("drops what OpenAI cannot enforce and says it in the description", () => {
    const props = openai.parameters["properties"] as Record<string, Record<string, unknown>>;
    expect(props["note"]?.["maxLength"]).toBeUndefined();
    expect(props["note"]?.["description"]).toBe("Constraints: maxLength 10.");
    expect(props["tags"]?.["description"]).toBe("Constraints: uniqueItems true.");
    expect((props["tags"]?.["items"] as Record<string, unknown>)["description"]).toBe('Constraints: format "uri".');
    expect(props["mode"]?.["description"]).toBe('Default: "slow".');
  });

  it("maps nulls back to absent where the property was optional, through $defs too, and keeps nullable nulls", () => {
    const args = { to: { city: "Oslo", zip: null }, note: null, tags: null, mode: null };
    expect(nullsToAbsent(args, openai.nulls)).toEqual({ to: { city: "Oslo" }, note: null });
    expect(args.tags).toBeNull();
  });
});

describe("a type that extends another with allOf", () => {
  const { tools } = compile(
    {
      person: tool("person", `  type: object
  properties:
    who:
      allOf:
        - $ref: "types.yaml#/Address"
        - type: object
          properties:
            name: { type: string }
  required: [who]`),
    },
    TYPES,
  );
  const entry = providerEntry(tools[0]!);

  it("is merged into one closed object, strict for OpenAI and Anthropic", () => {
    expect(entry.openai?.problems).toEqual([]);
    const who = (entry.openai?.parameters["properties"] as Record<string, Record<string, unknown>>)["who"];
    expect(who).toMatchObject({ type: "object", required: ["city", "zip", "name"], additionalProperties: false });
    expect(Object.keys(who?.["properties"] as object)).toEqual(["city", "zip", "name"]);
    expect(entry.anthropic?.strict).toBe(true);
    expect((entry.anthropic?.inputSchema["properties"] as Record<string, unknown>)["who"]).toMatchObject({ required: ["city"], additionalProperties: false });
  });

  it("maps the merged object's optional nulls back to absent", () => {
    expect(nullsToAbsent({ who: { city: "Oslo", zip: null, name: null } }, entry.openai?.nulls)).toEqual({ who: { city: "Oslo" } });
  });
});

describe("an object whose union branches only add required (at least one of a and b)", () => {
  const { tools } = compile({
    pick: tool("pick", `  type: object
  properties:
    filter:
      type: object
      properties:
        a: { type: boolean }
        b: { type: integer }
      anyOf:
        - required: [a]
        - required: [b]
  required: [filter]`),
  });
  const entry = providerEntry(tools[0]!);

  it("is a union of closed objects, one per branch, strict for OpenAI and Anthropic (a branch is an object schema as the toolkit says: required alone makes one)", () => {
    expect(entry.openai?.problems).toEqual([]);
    expect(entry.anthropic?.strict).toBe(true);
    const filter = (entry.anthropic?.inputSchema["properties"] as Record<string, Record<string, unknown>>)["filter"];
    expect(filter?.["anyOf"]).toEqual([
      { type: "object", properties: { a: { type: "boolean" }, b: { type: "integer" } }, required: ["a"], additionalProperties: false },
      { type: "object", properties: { a: { type: "boolean" }, b: { type: "integer" } }, required: ["b"], additionalProperties: false },
    ]);
  });
});

describe("what cannot be strict", () => {
  const { tools, diagnostics } = compile(
    {
      tree: tool("tree", `  type: object
  properties:
    root: { $ref: "types.yaml#/Node" }
  required: [root]`),
      labels: tool("labels", `  type: object
  properties:
    labels:
      type: object
      additionalProperties: { type: string }`),
    },
    TYPES,
  );
  const [labels, tree] = tools.map(providerEntry);

  it("a recursive type is strict for OpenAI, which allows recursion, and not for Anthropic, which does not", () => {
    expect(tree?.openai?.strict).toBe(true);
    expect(tree?.anthropic?.strict).toBe(false);
    expect(tree?.anthropic?.problems.map((p) => p.message)).toEqual(["the recursive type Node has no strict form"]);
  });

  it("an open map is exported non-strict with its served schema, and warned about at the contract", () => {
    expect(labels?.openai?.strict).toBe(false);
    expect(labels?.openai?.parameters).toEqual(labels?.tool.inputSchema);
    const warnings = diagnostics.filter((d) => d.file === "defs/labels.yaml" && d.code.startsWith("TC07")).map(formatDiagnostic);
    expect(warnings).toEqual([
      "defs/labels.yaml:10:29: warning TC070: exported to OpenAI with strict: false: an open map (additionalProperties with a schema) has no strict form at input.properties.labels.additionalProperties; toolc still validates every call",
      "defs/labels.yaml:10:29: warning TC071: exported to Anthropic with strict: false: an open map (additionalProperties with a schema) has no strict form at input.properties.labels.additionalProperties; toolc still validates every call",
    ]);
  });

  it("an object open only to extra keys is closed in the strict form, and stays open in toolc's own validator", () => {
    const { tools: [open] } = compile({ open: tool("open", "  type: object\n  properties:\n    q: { type: string }\n  additionalProperties: true") });
    const entry = providerEntry(open!);
    expect(entry.openai).toMatchObject({ strict: true, parameters: { additionalProperties: false, required: ["q"] } });
    expect(entry.anthropic?.strict).toBe(true);
    // An example may use the extra keys the contract allows, which the strict form does not: none go to input_examples.
    expect(entry.anthropic?.examplesFit).toBe(false);
    expect(open!.inputSchema["additionalProperties"]).toBe(true);
    const anyKeys = compile({ any: tool("any", "  type: object\n  properties:\n    bag: { type: object, additionalProperties: true }") });
    expect(providerEntry(anyKeys.tools[0]!).openai?.problems.map((p) => p.message)).toEqual(["an object with no declared properties (any keys) has no strict form"]);
  });

  it("an array without items is not strict", () => {
    const { tools: [bag] } = compile({ bag: tool("bag", "  type: object\n  properties:\n    xs: { type: array }") });
    expect(providerEntry(bag!).openai?.problems).toEqual([{ path: ["properties", "xs"], message: "an array of values of any type (no items) has no strict form" }]);
  });

  it("nesting deeper than OpenAI's 10 levels is not strict", () => {
    let schema = "{ type: string }";
    for (let i = 0; i < 11; i++) schema = `{ type: object, properties: { a: ${schema} } }`;
    const deep = compile({ deep: tool("deep", `  type: object\n  properties:\n    a: ${schema}`) });
    expect(providerEntry(deep.tools[0]!).openai?.problems.map((p) => p.message)).toEqual(["12 levels of nesting exceed OpenAI's 10"]);
  });
});

describe("names and per-request budgets", () => {
  it("a name a provider refuses leaves the tool out of that provider's exports, with a warning", () => {
    const { tools, diagnostics } = compile({ dotted: tool("orders.get", "  type: object") });
    const entry = providerEntry(tools[0]!);
    expect([entry.openai, entry.anthropic]).toEqual([undefined, undefined]);
    expect(entry.gemini).toBeDefined();
    expect(diagnostics.filter((d) => d.code === "TC072").map((d) => d.message)).toEqual([
      "tool name `orders.get` does not match OpenAI's ^[a-zA-Z0-9_-]{1,64}$; it is left out of the OpenAI exports in providers.ts",
      "tool name `orders.get` does not match Anthropic's ^[a-zA-Z0-9_-]{1,64}$; it is left out of the Anthropic exports in providers.ts",
    ]);
  });

  it("Anthropic: at most 20 strict tools, and 24 optional parameters, in one request", () => {
    const many = Object.fromEntries(Array.from({ length: 22 }, (_, i) => [`t${i}`, tool(`t${String(i).padStart(2, "0")}`, "  type: object\n  properties:\n    x: { type: string }")]));
    const { entries, anthropicOverBudget } = providerCatalog(compile(many).tools);
    expect(entries.filter((e) => e.anthropic?.strict).length).toBe(20);
    expect(anthropicOverBudget).toEqual(["t20", "t21"]);
  });
});

describe("AI SDK strict and inputExamples", () => {
  const withExamples = (name: string, input: string, examples: string): string => `${tool(name, input)}examples:\n${examples}`;
  const { tools } = compile({
    exact: withExamples(
      "exact",
      "  type: object\n  properties:\n    id: { type: string, pattern: \"^a\" }\n    kind: { type: string, enum: [a, b] }\n  required: [id, kind]",
      "  - name: one\n    input: { id: a1, kind: a }\n  - name: bad id\n    input: { id: b1, kind: a }\n    invalid: [id]\n",
    ),
    optional: tool("optional", "  type: object\n  properties:\n    id: { type: string }"),
    secret: withExamples(
      "secret",
      "  type: object\n  properties:\n    id: { type: string }\n    auth: { type: object, properties: { token: { type: string, x-sensitive: true } } }",
      "  - name: with a token\n    input: { id: a1, auth: { token: s3cr3t-sample } }\n  - name: without\n    input: { id: a2 }\n",
    ),
    bounded: tool("bounded", "  type: object\n  properties:\n    n: { type: integer, minimum: 1 }\n  required: [n]"),
    long: tool("long", "  type: object\n  properties:\n    s: { type: string, minLength: 2 }\n  required: [s]"),
    untyped: tool("untyped", "  type: object\n  properties:\n    kind: { enum: [a, b] }\n  required: [kind]"),
  });
  const byName = new Map(providerCatalog(tools).entries.map((e) => [e.tool.name, e]));

  it("a tool is strict when its served schema already is OpenAI's and Anthropic's strict form", () => {
    const exact = byName.get("exact")!;
    expect(aiSdkEntry(exact).strict).toBe(true);
    expect(exact.openai?.parameters).toEqual(exact.tool.inputSchema);
  });

  it.each([
    ["optional", "OpenAI's strict form requires and nulls the optional property"],
    ["bounded", "Anthropic's strict form drops minimum"],
    ["long", "both drop minLength"],
    ["untyped", "both give the enum its type"],
  ])("%s is not strict: %s", (name) => {
    const entry = byName.get(name)!;
    expect([entry.openai?.strict, entry.anthropic?.strict]).toContain(true);
    expect(aiSdkEntry(entry).strict).toBe(false);
  });

  it("the contract's valid examples are its inputExamples; the invalid ones are not", () => {
    expect(aiSdkEntry(byName.get("exact")!).inputExamples).toEqual([{ input: { id: "a1", kind: "a" } }]);
    expect(aiSdkEntry(byName.get("optional")!).inputExamples).toEqual([]);
  });

  it("an example holding an x-sensitive value goes to no provider, at any depth", () => {
    const secret = byName.get("secret")!;
    expect(aiSdkEntry(secret).inputExamples).toEqual([{ input: { id: "a2" } }]);
    expect(objectExamples(secret.tool)).toEqual([{ id: "a2" }]);
    expect(JSON.stringify(emitProvidersModule({ tools: [secret.tool], typeFiles: [] }).text)).not.toContain("s3cr3t-sample");
  });

  it("a tool over Anthropic's per-request budget is not strict for the AI SDK either", () => {
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`t${i}`, tool(`t${String(i).padStart(2, "0")}`, "  type: object\n  properties:\n    x: { type: string }\n  required: [x]")]));
    const strict = providerCatalog(compile(many).tools).entries.map((e) => aiSdkEntry(e).strict);
    expect(strict.filter(Boolean).length).toBe(20);
    expect(strict[20]).toBe(false);
  });
});
