/**
 * Normalize, table-driven: what the served schema and the policy look like
 * for a given definition. Each case is a tool YAML (plus shared types) and
 * the parts of the IR it must produce.
 */
import { describe, expect, it } from "vitest";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import type { ToolIR } from "../../generator/ir.js";

const TYPES = `types:
  Money:
    type: object
    properties:
      cents: { type: integer }
      currency: { $ref: "#/types/Currency" }
    required: [cents]
  Currency: { enum: [EUR, USD] }
  Unused: { type: string }
`;

function tool(body: string): string {
  return `name: t\nversion: 3\ndescription: d\n${body}`;
}

function normalized(toolYaml: string): ToolIR {
  const loaded = loadDefinitionsFromTexts([
    { source: "types.yaml", display: "types.yaml", text: TYPES },
    { source: "t.yaml", display: "t.yaml", text: toolYaml },
  ]);
  const { ir, diagnostics } = normalize(loaded);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return ir.tools[0];
}

const IO = "input: { type: object }\noutput: { type: object }\n";

describe("normalize: policy and annotations", () => {
  it.each([
    { effect: "read", extra: "", want: { idempotent: true, annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } } },
    { effect: "write", extra: "", want: { idempotent: false, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } } },
    { effect: "destructive", extra: "openWorld: true\n", want: { idempotent: false, annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } } },
    { effect: "write", extra: "idempotent: true\n", want: { idempotent: true, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } } },
  ])("effect $effect $extra", ({ effect, extra, want }) => {
    const ir = normalized(tool(`effect: ${effect}\n${extra}${IO}`));
    expect(ir.idempotent).toBe(want.idempotent);
    expect(ir.annotations).toEqual(want.annotations);
    expect(ir.meta).toEqual({ "toolc/contractVersion": 3, "toolc/schemaHash": expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
  });

  it.each([
    { yaml: "", want: { timeoutMs: 10000, retry: { attempts: 1, backoffMs: 100, maxBackoffMs: 2000, budgetMs: 10000 } } },
    { yaml: "timeoutMs: 500\nretry: { attempts: 3, backoffMs: 50 }\n", want: { timeoutMs: 500, retry: { attempts: 3, backoffMs: 50, maxBackoffMs: 2000, budgetMs: 500 * 3 + 2000 * 2 } } },
    { yaml: "retry: { attempts: 2, backoffMs: 10, maxBackoffMs: 20, budgetMs: 99 }\n", want: { timeoutMs: 10000, retry: { attempts: 2, backoffMs: 10, maxBackoffMs: 20, budgetMs: 99 } } },
  ])("policy defaults for $yaml", ({ yaml, want }) => {
    const ir = normalized(tool(`effect: read\n${yaml}${IO}`));
    expect({ timeoutMs: ir.timeoutMs, retry: ir.retry }).toEqual(want);
  });
});

describe("normalize: served schemas", () => {
  it.each([
    {
      name: "a tool with no arguments is a closed empty object",
      input: "{ type: object }",
      want: { type: "object", additionalProperties: false },
    },
    {
      name: "nested objects are closed; an explicit additionalProperties is kept",
      input: "{ type: object, properties: { a: { type: object, properties: { b: { type: string } } }, m: { type: object, additionalProperties: { type: string } }, o: { type: object, additionalProperties: true } } }",
      want: {
        type: "object",
        properties: {
          a: { type: "object", properties: { b: { type: "string" } }, additionalProperties: false },
          m: { type: "object", additionalProperties: { type: "string" } },
          o: { type: "object", additionalProperties: true },
        },
        additionalProperties: false,
      },
    },
    {
      name: "objects inside anyOf/oneOf/items are closed too",
      input: "{ type: object, properties: { u: { anyOf: [{ type: object, properties: { x: { type: string } } }, { type: 'null' }] }, l: { type: array, items: { type: object } } } }",
      want: {
        type: "object",
        properties: {
          u: { anyOf: [{ type: "object", properties: { x: { type: "string" } }, additionalProperties: false }, { type: "null" }] },
          l: { type: "array", items: { type: "object", additionalProperties: false } },
        },
        additionalProperties: false,
      },
    },
    {
      name: "allOf branches stay open and the whole is closed with unevaluatedProperties",
      input: "{ type: object, properties: { p: { allOf: [{ type: object, properties: { a: { type: string } } }, { type: object, properties: { b: { type: string } } }] } } }",
      want: {
        type: "object",
        properties: {
          p: { allOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "string" } } }], type: "object", unevaluatedProperties: false },
        },
        additionalProperties: false,
      },
    },
    {
      name: "an allOf of references to non-objects (a string $defs entry, an enum named type) is not made an object",
      input: "{ type: object, properties: { s: { allOf: [{ $ref: '#/$defs/S' }], description: d }, c: { allOf: [{ $ref: 'types.yaml#/Currency' }] } }, $defs: { S: { type: string, enum: [a, b] } } }",
      want: {
        type: "object",
        properties: { s: { allOf: [{ $ref: "#/$defs/S" }], description: "d" }, c: { allOf: [{ $ref: "#/$defs/Currency" }] } },
        additionalProperties: false,
        $defs: { Currency: { enum: ["EUR", "USD"] }, S: { type: "string", enum: ["a", "b"] } },
      },
    },
    {
      name: "named types are rewritten to #/$defs and bundled with what they use, sorted",
      input: "{ type: object, properties: { price: { $ref: 'types.yaml#/Money' } } }",
      want: {
        type: "object",
        properties: { price: { $ref: "#/$defs/Money" } },
        additionalProperties: false,
        $defs: {
          Currency: { enum: ["EUR", "USD"] },
          Money: { type: "object", properties: { cents: { type: "integer" }, currency: { $ref: "#/$defs/Currency" } }, required: ["cents"], additionalProperties: false },
        },
      },
    },
    {
      name: "local $defs stay local and are bundled with named ones",
      input: "{ type: object, properties: { n: { $ref: '#/$defs/Node' } }, $defs: { Node: { type: object, properties: { next: { $ref: '#/$defs/Node' } } } } }",
      want: {
        type: "object",
        properties: { n: { $ref: "#/$defs/Node" } },
        additionalProperties: false,
        $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } }, additionalProperties: false } },
      },
    },
  ])("$name", ({ input, want }) => {
    const ir = normalized(tool(`effect: read\ninput: ${input}\noutput: { type: object }\n`));
    expect(ir.inputSchema).toEqual(want);
  });

  it.each([
    { name: "an array of a named type: the root stays open, the items are closed", output: "{ type: array, items: { $ref: 'types.yaml#/Money' }, maxItems: 10 }", want: {
      type: "array",
      items: { $ref: "#/$defs/Money" },
      maxItems: 10,
      $defs: {
        Currency: { enum: ["EUR", "USD"] },
        Money: { type: "object", properties: { cents: { type: "integer" }, currency: { $ref: "#/$defs/Currency" } }, required: ["cents"], additionalProperties: false },
      },
    } },
    { name: "a string", output: "{ type: string, maxLength: 280 }", want: { type: "string", maxLength: 280 } },
    { name: "a number", output: "{ type: number, minimum: 0 }", want: { type: "number", minimum: 0 } },
    { name: "a nullable string", output: "{ type: [string, 'null'] }", want: { type: ["string", "null"] } },
    { name: "a union: its object branch is closed, the union is not", output: "{ anyOf: [{ type: object, properties: { a: { type: string } } }, { type: array, items: { type: string } }, { type: 'null' }] }", want: {
      anyOf: [{ type: "object", properties: { a: { type: "string" } }, additionalProperties: false }, { type: "array", items: { type: "string" } }, { type: "null" }],
    } },
    { name: "a $ref to a named object type", output: "{ $ref: 'types.yaml#/Money' }", want: {
      $ref: "#/$defs/Money",
      $defs: {
        Currency: { enum: ["EUR", "USD"] },
        Money: { type: "object", properties: { cents: { type: "integer" }, currency: { $ref: "#/$defs/Currency" } }, required: ["cents"], additionalProperties: false },
      },
    } },
  ])("an output whose root is not an object compiles, unclosed at the root: $name", ({ output, want }) => {
    const ir = normalized(tool(`effect: read\ninput: { type: object }\noutput: ${output}\n`));
    expect(ir.outputSchema).toEqual(want);
  });

  it("finds x-sensitive properties in the items of an array output", () => {
    const ir = normalized(tool("effect: read\ninput: { type: object }\noutput: { type: array, items: { type: object, properties: { pin: { type: string, x-sensitive: true } } } }\n"));
    expect(ir.sensitive.output).toEqual([{ items: 1 }, { properties: { pin: 2 } }, { sensitive: "secret" }]);
  });

  it("records where each $defs entry came from, for the type emitter", () => {
    const ir = normalized(tool("effect: read\ninput: { type: object, properties: { price: { $ref: 'types.yaml#/Money' }, n: { $ref: '#/$defs/Node' } }, $defs: { Node: { type: string } } }\noutput: { type: object }\n"));
    expect(ir.inputDefs).toEqual({
      Node: { kind: "local", schema: "input", name: "Node" },
      Currency: { kind: "named", name: "Currency", module: "types" },
      Money: { kind: "named", name: "Money", module: "types" },
    });
  });

  it("finds x-sensitive properties through refs, arrays and maps", () => {
    const ir = normalized(tool(`effect: read
input:
  type: object
  properties:
    token: { type: string, x-sensitive: true }
    cards: { type: array, items: { type: object, properties: { cvc: { type: string, x-sensitive: true } } } }
    vault: { type: object, additionalProperties: { type: string, x-sensitive: true } }
output: { type: object }
`));
    expect(ir.sensitive.input).toEqual([
      { properties: { token: 1, cards: 2, vault: 3 } },
      { sensitive: "secret" },
      { items: 4 },
      { additionalProperties: 1 },
      { properties: { cvc: 1 } },
    ]);
    expect(ir.sensitive.output).toEqual([]);
  });

  it("tracks a recursive type as a loop of states, one state however many properties reach the type", () => {
    const ir = normalized(tool(`effect: read
input:
  type: object
  properties:
    a: { $ref: "#/$defs/Node" }
    b: { $ref: "#/$defs/Node" }
  $defs:
    Node: { type: object, properties: { secret: { type: string, x-sensitive: true }, next: { $ref: "#/$defs/Node" }, label: { type: string } } }
output: { type: object }
`));
    expect(ir.sensitive.input).toEqual([{ properties: { a: 1, b: 1 } }, { properties: { secret: 2, next: 1 } }, { sensitive: "secret" }]);
  });

  it("orders tools by name and keeps examples", () => {
    const ir = normalized(tool(`effect: read\n${IO}examples:\n  - name: e\n    input: {}\n`));
    expect(ir.examples).toEqual([{ name: "e", input: {} }]);
    // The IR describes contracts: TypeScript and file names are the TS targets' (emit/ts-names.ts).
    expect(ir).not.toHaveProperty("baseName");
    expect(ir).not.toHaveProperty("fileName");
    expect(ir.source).toBe("t.yaml");
  });
});
