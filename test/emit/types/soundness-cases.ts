/**
 * The cases of the type-soundness check of the emitted types: a tool with
 * named types across files, values Ajv accepts or rejects for it, and the
 * check file that assigns each value to its type (`// @ts-expect-error`
 * above the ones that must fail).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FileBuilder } from "../../../generator/printer/file-builder.js";
import { emitTypeFile, toolTypeStatements } from "../../../generator/emit/types.js";
import type { ContractIR, JsonObject, JsonValue } from "../../../generator/ir.js";
import { toolFixture } from "./helpers.js";

const closed = (properties: JsonObject, required: string[] = []): JsonObject => ({ type: "object", properties, required, additionalProperties: false });

const named = {
  Status: { type: "string", enum: ["pending", "paid", "cancelled"], description: "Lifecycle */ state." },
  Money: closed({ amount: { type: "integer", minimum: 0 }, currency: { type: "string", pattern: "^[A-Z]{3}$" } }, ["amount", "currency"]),
  Order: closed(
    {
      id: { type: "string", format: "uuid" },
      status: { $ref: "#/$defs/Status" },
      total: { $ref: "#/$defs/Money" },
      tags: { type: "array", items: { type: "string" }, uniqueItems: true },
      meta: { type: "object", additionalProperties: { type: "string" } },
    },
    ["id", "status"],
  ),
  Tree: closed({ value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/Tree" } } }, ["value"]),
  Address: closed({ city: { type: "string" }, zip: { type: ["string", "null"] }, lastOrder: { $ref: "#/$defs/Order" } }, ["city", "zip"]),
} satisfies Record<string, JsonObject>;

/** Where a fixture's names are: these types were never YAML. */
const at = (file: string) => ({ file, line: 1, col: 1 });

const ir: ContractIR = {
  tools: [],
  typeFiles: [
    { source: "common.yaml", module: "common", typesAt: at("common.yaml"), types: ["Status", "Money", "Order", "Tree"].map((n) => ({ name: n, nameAt: at("common.yaml"), schema: named[n as keyof typeof named] })) },
    { source: "geo.yaml", module: "geo", typesAt: at("geo.yaml"), types: [{ name: "Address", nameAt: at("geo.yaml"), schema: named.Address }] },
  ],
};

const namedOrigin = (name: string, module: string) => ({ kind: "named", name, module }) as const;
export const tool = toolFixture({
  name: "search_orders",
  errors: [{ code: "NOT_FOUND", description: "Nothing matched." }],
  inputSchema: {
    ...closed(
      {
        query: { type: "string", minLength: 1 },
        limit: { type: "integer", default: 20 },
        filter: {
          oneOf: [
            closed({ kind: { const: "status" }, status: { $ref: "#/$defs/Status" } }, ["kind", "status"]),
            closed({ kind: { const: "customer" }, customerId: { type: "string" } }, ["kind", "customerId"]),
          ],
        },
        since: { type: ["string", "null"], format: "date-time" },
        cursor: { anyOf: [{ type: "string" }, { type: "null" }] },
        options: closed({ includeDeleted: { type: "boolean", default: false } }),
        labels: { type: "object", additionalProperties: { type: "string" } },
        secret: { type: "string", "x-sensitive": true },
      },
      ["query"],
    ),
    $defs: { Status: named.Status },
  },
  outputSchema: {
    ...closed(
      {
        orders: { type: "array", items: { $ref: "#/$defs/Order" } },
        next: { type: ["string", "null"] },
        tree: { $ref: "#/$defs/Tree" },
        address: { $ref: "#/$defs/Address" },
        point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], minItems: 2, items: false },
        tally: { type: "object", properties: { total: { type: "integer" } }, required: ["total"], additionalProperties: { type: "integer" } },
        version: { const: 1 },
        page: { $ref: "#/$defs/Page" },
        raw: true,
      },
      ["orders", "next", "version"],
    ),
    $defs: { ...named, Page: closed({ size: { type: "integer" } }, ["size"]) },
  },
  inputDefs: { Status: namedOrigin("Status", "common") },
  outputDefs: {
    Status: namedOrigin("Status", "common"),
    Money: namedOrigin("Money", "common"),
    Order: namedOrigin("Order", "common"),
    Tree: namedOrigin("Tree", "common"),
    Address: namedOrigin("Address", "geo"),
    Page: { kind: "local", schema: "output", name: "Page" },
  },
});

export interface Case {
  readonly type: "SearchOrdersInput" | "SearchOrdersOutput";
  readonly value: JsonValue;
  readonly valid: boolean;
  readonly why: string;
}

const order = { id: "6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d", status: "paid" };
const out = { orders: [order], next: null, version: 1 };
export const cases: Case[] = [
  { type: "SearchOrdersInput", valid: true, why: "minimal", value: { query: "x" } },
  {
    type: "SearchOrdersInput",
    valid: true,
    why: "everything",
    value: { query: "x", limit: 5, filter: { kind: "status", status: "paid" }, since: null, cursor: "c", options: { includeDeleted: true }, labels: { a: "b" }, secret: "s" },
  },
  { type: "SearchOrdersInput", valid: true, why: "other oneOf branch", value: { query: "x", filter: { kind: "customer", customerId: "c1" } } },
  { type: "SearchOrdersInput", valid: false, why: "missing required", value: { limit: 1 } },
  { type: "SearchOrdersInput", valid: false, why: "wrong type", value: { query: 42 } },
  { type: "SearchOrdersInput", valid: false, why: "extra property", value: { query: "x", includeDeletd: true } },
  { type: "SearchOrdersInput", valid: false, why: "enum value", value: { query: "x", filter: { kind: "status", status: "lost" } } },
  { type: "SearchOrdersInput", valid: false, why: "mixed oneOf branches", value: { query: "x", filter: { kind: "status", customerId: "c1" } } },
  { type: "SearchOrdersInput", valid: false, why: "record value type", value: { query: "x", labels: { a: 1 } } },
  { type: "SearchOrdersInput", valid: false, why: "null where not nullable", value: { query: "x", limit: null } },
  { type: "SearchOrdersOutput", valid: true, why: "minimal", value: out },
  {
    type: "SearchOrdersOutput",
    valid: true,
    why: "everything",
    value: {
      ...out,
      orders: [{ ...order, total: { amount: 5, currency: "EUR" }, tags: ["a"], meta: { k: "v" } }],
      tree: { value: 1, children: [{ value: 2 }] },
      address: { city: "Oslo", zip: null, lastOrder: order },
      point: [1, 2],
      tally: { total: 3, a: 1 },
      page: { size: 1 },
      raw: { anything: [1] },
    },
  },
  { type: "SearchOrdersOutput", valid: false, why: "const", value: { ...out, version: 2 } },
  { type: "SearchOrdersOutput", valid: false, why: "nullable required", value: { orders: [], version: 1 } },
  { type: "SearchOrdersOutput", valid: false, why: "named enum across files", value: { ...out, address: { city: "Oslo", zip: null, lastOrder: { id: order.id, status: "gone" } } } },
  { type: "SearchOrdersOutput", valid: false, why: "recursive type", value: { ...out, tree: { value: 1, children: [{ value: "2" }] } } },
  { type: "SearchOrdersOutput", valid: false, why: "closed tuple length", value: { ...out, point: [1, 2, 3] } },
  { type: "SearchOrdersOutput", valid: false, why: "record with known property", value: { ...out, tally: { total: 1, a: "x" } } },
  { type: "SearchOrdersOutput", valid: false, why: "local def", value: { ...out, page: {} } },
];

/** Checks on the declared types beyond plain assignability. */
const extraChecks = `
declare const sent: SearchOrdersInput;
declare const resolved: SearchOrdersResolvedInput;
// A default makes the property present once resolved, at any depth.
export const limit: number = resolved.limit;
export const deep: boolean | undefined = resolved.options?.includeDeleted;
// @ts-expect-error as sent, a defaulted property may be absent
export const sentLimit: number = sent.limit;
// @ts-expect-error resolved input keeps the other types
export const query: number = resolved.query;
export const reason: SearchOrdersReason = "NOT_FOUND";
// @ts-expect-error undeclared rejection reason
export const badReason: SearchOrdersReason = "OTHER";
declare const output: SearchOrdersOutput;
export const total: number = output.tally?.total ?? 0;
export const status: Status | undefined = output.orders[0]?.status;
`;

function checkFile(): string {
  const lines = ['import type { Status } from "./types/common.js";'];
  lines.push('import type { SearchOrdersInput, SearchOrdersOutput, SearchOrdersReason, SearchOrdersResolvedInput } from "./tools/search_orders.js";');
  cases.forEach((c, i) => {
    lines.push(`// ${c.why}`);
    if (!c.valid) lines.push("// @ts-expect-error");
    lines.push(`export const case${i}: ${c.type} = ${JSON.stringify(c.value)};`);
  });
  return lines.join("\n") + "\n" + extraChecks;
}

/** Writes the emitted type files and check.ts into `dir`; returns the TypeScript files written. */
export function writeTypesProject(dir: string): string[] {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ type: "module" }),
    "check.ts": checkFile(),
  };
  for (const f of ir.typeFiles) {
    const emitted = emitTypeFile(f, ir, `// Generated by toolc from ${f.source}. DO NOT EDIT.`);
    files[emitted.path] = emitted.text;
  }
  const builder = new FileBuilder("tools/search_orders.ts", "// Generated by toolc from search_orders.yaml. DO NOT EDIT.");
  toolTypeStatements(tool, builder);
  files[builder.path] = builder.toText();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return Object.keys(files).filter((path) => path.endsWith(".ts")).map((path) => join(dir, path));
}

