/**
 * Synthetic tools each with schemas of its own, for the cold-path bench
 * (#42): a hand-written server has its own zod schemas per tool, so a bench
 * whose tools all share two input schemas and one output schema would credit
 * toolc with any sharing of identical validators. Every tool here draws its
 * input and output from a seeded generator (property names from a word list,
 * strings with bounds, patterns and formats, enums, integers with defaults,
 * nested objects, arrays of strings and of objects, nullable fields), about
 * the size of a typical API tool. The same draw gives the contract's JSON
 * Schema, the equivalent zod source for McpServer, a valid input and a valid
 * output, so both servers validate the same values against the same rules.
 *
 * Deterministic: the same seed and count give the same files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A schema node drawn once: its JSON Schema, the zod expression that accepts the same values, and one valid value. */
interface Node {
  readonly schema: Record<string, unknown>;
  readonly zod: string;
  readonly sample: unknown;
}

/** One tool drawn: what the contract, the zod server and the bench client need. */
export interface VariedTool {
  readonly name: string;
  readonly effect: "read" | "write" | "destructive";
  readonly input: Record<string, unknown>;
  readonly output: Record<string, unknown>;
  /** zod raw shape source of the input (McpServer's inputSchema) and the output. */
  readonly zodInput: string;
  readonly zodOutput: string;
  readonly arguments: Record<string, unknown>;
  readonly result: Record<string, unknown>;
}

/** mulberry32: a small seeded PRNG, so the draw is the same on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "account order invoice customer project user team repo branch issue label comment review release asset " +
  "payment refund card plan price product item cart shipment address region zone cluster node volume " +
  "bucket object file folder message channel thread event webhook token key secret policy role group " +
  "member device session report metric alert incident ticket task job run step build deploy"
).split(" ");
const SUFFIXES = ["Id", "Name", "Count", "Status", "Type", "Url", "At", "Ref", "Code", "Kind", "Mode", "Level", "Limit", "Tags", "Note"];
const ENUM_WORDS = (
  "pending active suspended closed open draft published archived queued running failed succeeded " +
  "low medium high critical public private internal asc desc daily weekly monthly"
).split(" ");

/** The draw's helpers over one PRNG. */
class Draw {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** `count` distinct property names, camelCase, e.g. `orderStatus`. */
  names(count: number): string[] {
    const names = new Set<string>();
    while (names.size < count) names.add(`${this.pick(WORDS)}${this.pick(SUFFIXES)}`);
    return [...names];
  }
  /** `count` distinct enum values. */
  enumValues(count: number): string[] {
    const values = new Set<string>();
    while (values.size < count) values.add(this.pick(ENUM_WORDS));
    return [...values];
  }
}

const FORMATS: Record<string, { zod: string; sample: string }> = {
  "date-time": { zod: "z.iso.datetime()", sample: "2026-03-14T09:26:53Z" },
  date: { zod: "z.iso.date()", sample: "2026-03-14" },
  uuid: { zod: "z.uuid()", sample: "9b2f6c1e-3d4a-4f8b-9c2d-1e5f7a8b9c0d" },
  email: { zod: "z.email()", sample: "someone@example.com" },
};

/** A leaf: a string (bounded, patterned or formatted), an enum, an integer, a number, a boolean, or a nullable string. */
function leaf(d: Draw, input: boolean): Node {
  const kind = d.int(0, 9);
  const described = d.chance(0.3) ? `Synthetic field ${d.int(1, 999)}` : undefined;
  const withDescription = (node: Node): Node =>
    described === undefined
      ? node
      : { schema: { ...node.schema, description: described }, zod: `${node.zod}.describe(${JSON.stringify(described)})`, sample: node.sample };
  switch (kind) {
    case 0:
    case 1: {
      const max = d.pick([32, 64, 128, 256]);
      const min = d.int(0, 2);
      const sample = "x".repeat(Math.max(min, 4));
      return withDescription({ schema: { type: "string", minLength: min, maxLength: max }, zod: `z.string().min(${min}).max(${max})`, sample });
    }
    case 2: {
      const prefix = d.pick(WORDS).slice(0, 3);
      const pattern = `^${prefix}_[A-Za-z0-9]+$`;
      return withDescription({ schema: { type: "string", pattern }, zod: `z.string().regex(/${pattern}/)`, sample: `${prefix}_a1B2` });
    }
    case 3: {
      const format = d.pick(Object.keys(FORMATS));
      const f = FORMATS[format] as { zod: string; sample: string };
      return withDescription({ schema: { type: "string", format }, zod: f.zod, sample: f.sample });
    }
    case 4:
    case 5: {
      const values = d.enumValues(d.int(2, 6));
      return withDescription({ schema: { enum: values }, zod: `z.enum(${JSON.stringify(values)})`, sample: values[0] });
    }
    case 6: {
      const min = d.int(0, 1);
      const max = d.pick([10, 100, 1000, 100000]);
      if (input && d.chance(0.5)) {
        const dflt = Math.min(max, 20);
        return {
          schema: { type: "integer", minimum: min, maximum: max, default: dflt },
          zod: `z.number().int().min(${min}).max(${max}).default(${dflt})`,
          sample: min,
        };
      }
      return withDescription({ schema: { type: "integer", minimum: min, maximum: max }, zod: `z.number().int().min(${min}).max(${max})`, sample: min });
    }
    case 7:
      return withDescription({ schema: { type: "number", minimum: 0 }, zod: "z.number().min(0)", sample: 12.5 });
    case 8:
      if (input && d.chance(0.5)) return { schema: { type: "boolean", default: false }, zod: "z.boolean().default(false)", sample: true };
      return withDescription({ schema: { type: "boolean" }, zod: "z.boolean()", sample: true });
    default:
      return withDescription({ schema: { type: ["string", "null"] }, zod: "z.string().nullable()", sample: null });
  }
}

/** A field: mostly leaves; below `depth` 2 also arrays of strings or enums, nested objects and arrays of objects. */
function field(d: Draw, input: boolean, depth: number): Node {
  const roll = d.next();
  if (depth >= 2 || roll < 0.7) return leaf(d, input);
  if (roll < 0.8) {
    const item = d.chance(0.5) ? leaf(d, false) : { schema: { type: "string", maxLength: 64 }, zod: "z.string().max(64)", sample: "tag" };
    const maxItems = d.pick([10, 50, 100]);
    return { schema: { type: "array", items: item.schema, maxItems }, zod: `z.array(${item.zod}).max(${maxItems})`, sample: [item.sample] };
  }
  const nested = object(d, input, depth + 1, d.int(2, 5));
  if (roll < 0.9) return { schema: nested.schema, zod: `z.strictObject({ ${nested.zod} })`, sample: nested.sample };
  return { schema: { type: "array", items: nested.schema }, zod: `z.array(z.strictObject({ ${nested.zod} }))`, sample: [nested.sample, nested.sample] };
}

/** A closed object of `count` fields (about half required); `zod` is its raw shape's body. */
function object(d: Draw, input: boolean, depth: number, count: number, first: Record<string, Node> = {}): Node {
  const fields: Record<string, Node> = { ...first };
  for (const name of d.names(count)) if (!(name in fields)) fields[name] = field(d, input, depth);
  const names = Object.keys(fields);
  const required = names.filter((name, i) => name in first || i === 0 || d.chance(0.5));
  const properties: Record<string, unknown> = {};
  const shape: string[] = [];
  const sample: Record<string, unknown> = {};
  for (const name of names) {
    const f = fields[name] as Node;
    properties[name] = f.schema;
    const isRequired = required.includes(name);
    const hasDefault = "default" in f.schema;
    shape.push(`${name}: ${f.zod}${isRequired || hasDefault ? "" : ".optional()"}`);
    // Valid values: every required field, and some optional ones (always in an output, whose validator then checks them).
    if (isRequired || !input || d.chance(0.5)) sample[name] = f.sample;
  }
  return { schema: { type: "object", properties, required }, zod: shape.join(", "), sample };
}

const EFFECTS = ["read", "write", "destructive"] as const;

/** Tool `i` of the draw seeded with `seed`. */
export function variedTool(i: number, seed: number): VariedTool {
  const d = new Draw(prng(seed * 100003 + i));
  const effect = EFFECTS[i % 3] as VariedTool["effect"];
  const write = effect !== "read";
  const requestId: Node = { schema: { type: "string", minLength: 8 }, zod: "z.string().min(8)", sample: "req_00000001" };
  const input = object(d, true, 0, d.int(3, 8), write ? { requestId } : {});
  const output = object(d, false, 0, d.int(4, 10));
  return {
    name: `tool_${String(i).padStart(4, "0")}`,
    effect,
    input: input.schema,
    output: output.schema,
    zodInput: `{ ${input.zod} }`,
    zodOutput: `{ ${output.zod} }`,
    arguments: input.sample as Record<string, unknown>,
    result: output.sample as Record<string, unknown>,
  };
}

/** The contract YAML of a drawn tool (its schemas in JSON flow style, which YAML reads as is). */
function contractYaml(tool: VariedTool, i: number): string {
  const write = tool.effect !== "read";
  return `name: ${tool.name}
version: 1
title: Tool ${i}
description: Synthetic tool number ${i}, with schemas of its own.
effect: ${tool.effect}
${write ? "idempotencyKey: requestId\nretry: { attempts: 2, backoffMs: 50 }\n" : ""}input: ${JSON.stringify(tool.input)}
output: ${JSON.stringify(tool.output)}
errors:
  NOT_FOUND: { description: Nothing matches. }
`;
}

/** The seed bench/cold-paths.ts draws with. */
export const VARIED_SEED = 42;

/** Writes `count` drawn tools' contracts into `dir`; returns the tools (their calls and results). */
export function writeVariedDefinitions(dir: string, count: number, seed = VARIED_SEED): VariedTool[] {
  mkdirSync(dir, { recursive: true });
  const tools: VariedTool[] = [];
  for (let i = 0; i < count; i++) {
    const tool = variedTool(i, seed);
    tools.push(tool);
    writeFileSync(join(dir, `${tool.name}.yaml`), contractYaml(tool, i));
  }
  return tools;
}

/** The hand-written server's tools: a module exporting each tool's name, effect and zod raw shapes, built when it loads (as a hand-written server's are). */
export function variedZodModule(tools: readonly VariedTool[]): string {
  const entries = tools.map(
    (t) => `  { name: ${JSON.stringify(t.name)}, effect: ${JSON.stringify(t.effect)}, inputSchema: ${t.zodInput}, outputSchema: ${t.zodOutput} },`,
  );
  return `import { z } from "zod";\nexport const tools = [\n${entries.join("\n")}\n];\n`;
}

/** Each tool's result, by name: both servers' handlers return it (read from the same JSON file). */
export function variedResults(tools: readonly VariedTool[]): string {
  return JSON.stringify(Object.fromEntries(tools.map((t) => [t.name, t.result])));
}
