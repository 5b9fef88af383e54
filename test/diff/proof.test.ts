/**
 * Proof that the diff's rules agree with the validators: for every edit the
 * diff calls compatible, sampled values cross over; for every edit it calls
 * breaking, a sampled value shows the break. Over a corpus of edits of real
 * schemas (the demo contracts, GitHub's MCP tools, the MCP reference
 * servers) and over edits of generated schemas.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contracts } from "../../generated/index.js";
import type { JsonObject } from "../../generator/ir.js";
import { checkPair, type Direction, type Pair, type Verdict } from "./proof/harness.js";
import { MUTATIONS, mutate, sites } from "./proof/mutations.js";

const CORPUS = new URL("../corpus/", import.meta.url).pathname;
const SAMPLES = 100;

/** Every edit of the catalogue at every node of `schema` where it applies, at most `limit` of them, spread over the schema. */
function editsOf(name: string, schema: JsonObject, direction: Direction, limit = Infinity): Pair[] {
  const pairs: Pair[] = [];
  for (const site of sites(schema)) {
    for (const [label, mutation] of Object.entries(MUTATIONS)) {
      // A root that may be null is not a tool schema: toolc refuses it, so the edit teaches nothing.
      if (site.path.length === 0 && label === "null toggled") continue;
      const head = mutate(schema, site.path, mutation);
      if (head) pairs.push({ label: `${name} ${direction} ${site.path.join("/") || "(root)"}: ${label}`, direction, base: schema, head: head as JsonObject });
    }
  }
  if (pairs.length <= limit) return pairs;
  const stride = pairs.length / limit;
  return Array.from({ length: limit }, (_, i) => pairs[Math.floor(i * stride)] as Pair);
}

function githubSchemas(): { name: string; schema: JsonObject }[] {
  const dir = join(CORPUS, "github-mcp-toolsnaps");
  return readdirSync(dir).filter((f) => f.endsWith(".snap")).sort().map((f) => ({ name: f.replace(/\.snap$/, ""), schema: (JSON.parse(readFileSync(join(dir, f), "utf8")) as { inputSchema: JsonObject }).inputSchema }));
}

function referenceSchemas(): { name: string; input: JsonObject; output?: JsonObject }[] {
  const dir = join(CORPUS, "mcp-reference-servers");
  return readdirSync(dir).filter((f) => f.endsWith(".tools.json")).sort().flatMap((f) => {
    const listed = JSON.parse(readFileSync(join(dir, f), "utf8")) as { tools?: { name: string; inputSchema: JsonObject; outputSchema?: JsonObject }[]; result?: { tools: { name: string; inputSchema: JsonObject; outputSchema?: JsonObject }[] } };
    // `$schema` is outside toolc's subset (toolc import drops it the same way).
    const plain = ({ $schema: _, ...rest }: JsonObject): JsonObject => rest;
    return (listed.tools ?? listed.result?.tools ?? []).map((t) => ({ name: t.name, input: plain(t.inputSchema), ...(t.outputSchema ? { output: plain(t.outputSchema) } : {}) }));
  });
}

interface Tally {
  compatible: number;
  breaking: number;
  warning: number;
  refused: number;
  failures: string[];
}

function run(pairs: readonly Pair[]): Tally {
  const tally: Tally = { compatible: 0, breaking: 0, warning: 0, refused: 0, failures: [] };
  for (const pair of pairs) {
    const outcome = checkPair(pair, SAMPLES);
    if (outcome.verdict === undefined) tally.refused++;
    else tally[outcome.verdict]++;
    if (outcome.failure) tally.failures.push(`${pair.label}: ${outcome.failure}`);
  }
  return tally;
}

describe("the rules against the validators, over edits of real schemas", () => {
  it("the demo contracts: every edit at every node, both directions", () => {
    const pairs = Object.values(contracts).flatMap((c) => [...editsOf(c.name, c.inputSchema as JsonObject, "input"), ...editsOf(c.name, c.outputSchema as JsonObject, "output")]);
    const tally = run(pairs);
    expect(tally.failures).toEqual([]);
    expect(tally.compatible).toBeGreaterThan(40);
    expect(tally.breaking).toBeGreaterThan(40);
  });

  it("GitHub's MCP tools and the MCP reference servers: edits spread over every schema", () => {
    const pairs = [
      ...githubSchemas().flatMap((s, i) => editsOf(s.name, s.schema, i % 2 === 0 ? "input" : "output", 2)),
      ...referenceSchemas().flatMap((s) => [...editsOf(s.name, s.input, "input", 2), ...(s.output ? editsOf(s.name, s.output, "output", 3) : [])]),
    ];
    const tally = run(pairs);
    expect(tally.failures).toEqual([]);
    expect(tally.compatible + tally.breaking).toBeGreaterThan(pairs.length / 2);
  });
});

/** Small object schemas in the subset real tools use. */
function schemaArbitrary(): fc.Arbitrary<JsonObject> {
  const leaf = fc.oneof<fc.Arbitrary<JsonObject>[]>(
    fc.record({ type: fc.constant("string"), minLength: fc.integer({ min: 0, max: 3 }) }, { requiredKeys: ["type"] }),
    fc.record({ type: fc.constant("integer"), minimum: fc.integer({ min: -5, max: 0 }), maximum: fc.integer({ min: 1, max: 50 }) }, { requiredKeys: ["type"] }),
    fc.constant<JsonObject>({ type: "number" }),
    fc.constant<JsonObject>({ type: "boolean" }),
    fc.uniqueArray(fc.constantFrom("a", "b", "c", "d"), { minLength: 1, maxLength: 4 }).map((values) => ({ type: "string", enum: values })),
    fc.constant<JsonObject>({ type: ["string", "null"] }),
    fc.constant<JsonObject>({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] }),
    fc.constant<JsonObject>({ anyOf: [{ type: "string", minLength: 1 }, { type: "string", maxLength: 0 }] }),
    fc.constant<JsonObject>({ type: "array", items: { type: "string" } }),
  );
  const object = (value: fc.Arbitrary<JsonObject>): fc.Arbitrary<JsonObject> =>
    fc.dictionary(fc.constantFrom("p", "q", "r"), value, { minKeys: 1, maxKeys: 3 }).chain((properties) =>
      fc.subarray(Object.keys(properties)).map((required) => ({ type: "object", properties, required, additionalProperties: false })),
    );
  return object(fc.oneof({ weight: 3, arbitrary: leaf }, { weight: 1, arbitrary: object(leaf) }));
}

describe("the rules against the validators, over edits of generated schemas", () => {
  it("holds for random edits of random schemas, in both directions", () => {
    const seen: Record<Verdict, number> = { compatible: 0, breaking: 0, warning: 0 };
    fc.assert(
      fc.property(schemaArbitrary(), fc.nat(), fc.constantFrom<Direction>("input", "output"), (schema, pick, direction) => {
        const edits = editsOf("generated", schema, direction);
        const pair = edits[pick % edits.length];
        if (!pair) return;
        const outcome = checkPair(pair, SAMPLES);
        if (outcome.verdict) seen[outcome.verdict]++;
        expect(outcome.failure, `${pair.label} of ${JSON.stringify(schema)}`).toBeUndefined();
      }),
      { numRuns: 150, seed: 12 },
    );
    expect(seen.compatible).toBeGreaterThan(20);
    expect(seen.breaking).toBeGreaterThan(20);
  });
});
