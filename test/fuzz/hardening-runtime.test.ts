/**
 * Chaos for the second attack pass, on the validators' and the executor's
 * side (docs/robustness.md, "A second attack pass"): tagged recursive unions
 * of any shape validate in work linear in their depth (counted, never timed),
 * and an `x-sensitive` value deeper than 32 levels, in a recursive named
 * type, or under a `$defs` name that needs escaping reaches no REJECTED or
 * RETRYABLE message and no trace. Every contract is compiled from YAML by
 * toolc's own load and normalize phases. Fixed seed, run counts from config.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAjv } from "../../generator/ajv.js";
import { withDiscriminators } from "../../generator/discriminators.js";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import { TransientError } from "../../generator/runtime/errors.js";
import { executeTool } from "../../generator/runtime/executor.js";
import type { TraceEvent } from "../../generator/runtime/types.js";
import { defsRef } from "../../generator/schema/pointer.js";
import { compileYaml, contractsFromYaml, toolYaml } from "../runtime/yaml-contracts.js";
import { CHAOS_SEED, runs, timeoutFor } from "./config.js";
import { containsString } from "./harness.js";

const identifier = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/).filter((s) => !(s in Object.prototype));

/** A tagged union of 2 to 4 object branches, each naming itself by `tag` (a `const` or an `enum`), at least two of them recursing into `child`. */
const union = fc
  .record({
    keyword: fc.constantFrom("anyOf", "oneOf"),
    tag: fc.constantFrom("kind", "type", "op", "t"),
    values: fc.uniqueArray(identifier, { minLength: 8, maxLength: 8 }),
    branches: fc.array(fc.record({ asEnum: fc.boolean(), child: fc.boolean(), kids: fc.boolean(), leaf: fc.boolean(), named: fc.boolean() }), { minLength: 2, maxLength: 4 }),
    // Untagged: the first branch's tag is not required, so the union cannot be decided by it, and TC025 must refuse it.
    tagged: fc.boolean(),
  })
  .map((u) => ({ ...u, branches: u.branches.map((b, i) => ({ ...b, child: b.child || i < 2 })) }));
type Union = typeof union extends fc.Arbitrary<infer U> ? U : never;

/** The union as a types file: `Node`, with each `named` branch a type of its own. */
function typesFile(u: Union): string {
  const ref = JSON.stringify("#/types/Node");
  const lines = ["types:", "  Node:", `    ${u.keyword}:`];
  const named: string[] = [];
  u.branches.forEach((b, i) => {
    const value = b.asEnum ? `{ enum: [${u.values[i]}, ${u.values[i + 4]}] }` : `{ const: ${u.values[i]} }`;
    const props = [`${u.tag}: ${value}`];
    if (b.child) props.push(`child: { $ref: ${ref} }`);
    if (b.kids) props.push(`kids: { type: array, maxItems: 3, items: { $ref: ${ref} } }`);
    if (b.leaf) props.push("v: { type: integer }");
    const required = u.tagged || i > 0 ? `, required: [${u.tag}]` : "";
    const schema = `{ type: object, properties: { ${props.join(", ")} }${required} }`;
    if (b.named) (lines.push(`      - { $ref: "#/types/B${i}" }`), named.push(`  B${i}: ${schema}`));
    else lines.push(`      - ${schema}`);
  });
  return [...lines, ...named, ""].join("\n");
}

/** A chain of `depth` nodes through `child`, each level of a branch that has one, ending in `leaf`. */
function chain(u: Union, depth: number, pick: number, leaf: Record<string, unknown>): unknown {
  const wrappers = u.branches.map((b, i) => ({ ...b, i })).filter((b) => b.child);
  let node: unknown = leaf;
  for (let level = 0; level < depth; level++) {
    const b = wrappers[(pick + level) % wrappers.length]!;
    node = { [u.tag]: u.values[b.i], child: node, ...(b.leaf ? { v: level } : {}), ...(b.kids ? { kids: [] } : {}) };
  }
  return { node };
}

/** Far more reads than any linear validation of these inputs takes: past it the count stops, and the run fails, rather than wait on exponential work. */
const READ_BUDGET = 200_000;

/** How many property reads and key listings validating `data` takes: the work, counted rather than timed. */
function work(validate: (data: unknown) => boolean, data: unknown): { valid: boolean; reads: number } {
  let reads = 0;
  const count = (): void => {
    if (++reads > READ_BUDGET) throw new Error(`validation read more than ${READ_BUDGET} properties`);
  };
  const watch = (value: unknown): unknown => {
    if (value === null || typeof value !== "object") return value;
    const target = Array.isArray(value) ? value.map(watch) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, watch(v)]));
    return new Proxy(target, { get: (t, k, r) => (count(), Reflect.get(t, k, r)), ownKeys: (t) => (count(), Reflect.ownKeys(t)) });
  };
  return { valid: validate(watch(data)), reads };
}

describe("chaos: tagged recursive unions", () => {
  const n = runs(40, 20);
  const ajv = createAjv({ applyDefaults: true });
  it(`validate in work linear in depth, and untagged ones are refused (TC025) (${n} runs)`, () => {
    const scenario = fc.record({ u: union, depth: fc.integer({ min: 4, max: 20 }), pick: fc.nat(3), leafBranch: fc.nat(3), broken: fc.constantFrom("no", "extra", "tag") });
    fc.assert(
      fc.property(scenario, ({ u, depth, pick, leafBranch, broken }) => {
        const tool = toolYaml("t", 'effect: read\ninput:\n  type: object\n  properties:\n    node: { $ref: "types.yaml#/Node" }\noutput: { type: object }\n');
        const { tools, diagnostics } = compileYaml({ "types.yaml": typesFile(u), "t.yaml": tool });
        const errors = diagnostics.filter((d) => d.severity === "error");
        if (!u.tagged) {
          expect(errors.map((d) => `${d.file} ${d.code}`)).toEqual(["types.yaml TC025"]);
          return;
        }
        expect(errors.map(formatDiagnostic)).toEqual([]);
        const validate = ajv.compile(withDiscriminators(tools[0]!.inputSchema));
        const leafIndex = leafBranch % u.branches.length;
        const leaf = { [u.tag]: broken === "tag" ? "no-such-tag" : u.values[leafIndex], ...(broken === "extra" ? { extra: 1 } : {}) };
        const shallow = work(validate, chain(u, depth, pick, leaf));
        const deep = work(validate, chain(u, depth * 2, pick, leaf));
        expect([shallow.valid, deep.valid]).toEqual([broken === "no", broken === "no"]);
        expect(deep.reads).toBeLessThanOrEqual(shallow.reads * 2.5);
      }),
      { numRuns: n, seed: CHAOS_SEED },
    );
  }, timeoutFor(n, 200));
});

/** Distinctive, so it cannot occur by chance in a fixed message; alphanumeric, so no escaping hides it. */
const secret = fc.stringMatching(/^[A-Za-z0-9]{6,30}$/).map((s) => `zQ${s}`);
const failing = fc.constantFrom("reject", "transient", "throw", "badInput");
const ERRORS = "errors:\n  REFUSED: { description: Refused. }\n";

/** Runs `contract` on `input` with a handler that fails as `how` says, quoting the secret; the secret must reach no envelope and no trace. */
async function expectNoLeak(contract: Parameters<typeof executeTool>[0], input: Record<string, unknown>, s: string, how: string): Promise<void> {
  // A bad input: a label past its maxLength beside the secret, so the secret sits in an input that is refused.
  if (how === "badInput") input.label = "x".repeat(100);
  const traces: TraceEvent[] = [];
  const handler = (_i: unknown, ctx: { reject(r: string, m: string): never }): never => {
    if (how === "reject") return ctx.reject("REFUSED", `refused ${s}`);
    if (how === "transient") throw new TransientError(`upstream said ${s}`);
    throw new Error(`boom ${s}`, { cause: new Error(s) });
  };
  const result = await executeTool(contract, input, handler as never, { onTrace: (e) => traces.push(e), sleep: async () => {} });
  const expected = { reject: "REJECTED", transient: "RETRYABLE", throw: "FAILED", badInput: "INVALID_INPUT" }[how];
  expect(result).toMatchObject({ ok: false, code: expected });
  expect(traces.length).toBeGreaterThanOrEqual(how === "badInput" ? 0 : 1);
  expect(containsString(result, s)).toBe(false);
  for (const t of traces) expect(containsString(t, s)).toBe(false);
}

/** Property names, some of which need escaping in a JSON pointer or an issue path. */
const propertyName = fc.constantFrom("n", "a/b", "~x", "two words", "100%", "é", "constructor", "x.y", "[0]");

describe("chaos: x-sensitive wherever the schema lets a value sit", () => {
  const n = runs(40, 20);
  it(`a secret more than 32 levels deep, marked at any level on the way, appears in no envelope or trace (${n} runs)`, async () => {
    const scenario = fc
      .record({ keys: fc.array(propertyName, { minLength: 33, maxLength: 60 }), marked: fc.nat(), secret, failing })
      .map((c) => ({ ...c, marked: c.marked % (c.keys.length + 1) }));
    await fc.assert(
      fc.asyncProperty(scenario, async ({ keys, marked, secret: s, failing: how }) => {
        // Level `marked` (0 = the outermost property's value, keys.length = the string itself) carries x-sensitive.
        let schema = `{ type: string, maxLength: 64${marked === keys.length ? ", x-sensitive: true" : ""} }`;
        let value: unknown = s;
        for (let level = keys.length - 1; level >= 0; level--) {
          const mark = marked === level ? ", x-sensitive: true" : "";
          schema = `{ type: object, properties: { ${JSON.stringify(keys[level])}: ${schema} }${mark} }`;
          value = { [keys[level]!]: value };
        }
        const body = `effect: read\ninput: { type: object, properties: { label: { type: string, maxLength: 3 }, deep: ${schema} } }\noutput: { type: object }\n${ERRORS}`;
        const { deep } = contractsFromYaml({ "deep.yaml": toolYaml("deep", body) });
        await expectNoLeak(deep!, { deep: value }, s, how);
      }),
      { numRuns: n, seed: CHAOS_SEED },
    );
  }, timeoutFor(n, 300));

  /** A recursive tree type, as a named type or under a tool's `$defs` entry `name`: each node has a secret, a sensitive map, children and a next node. */
  function treeTool(where: "named" | "defs", name: string, children: string): ReturnType<typeof contractsFromYaml>[string] {
    const ref = JSON.stringify(where === "named" ? `#/types/${name}` : defsRef(name));
    const node = `
      type: object
      properties:
        label: { type: string, maxLength: 3 }
        secret: { type: string, maxLength: 64, x-sensitive: true }
        vault: { type: object, maxProperties: 4, additionalProperties: { type: string, maxLength: 64 }, x-sensitive: true }
        ${JSON.stringify(children)}: { type: array, maxItems: 4, items: { $ref: ${ref} } }
        next: { $ref: ${ref} }
`;
    if (where === "named") {
      const tool = toolYaml("tree", `effect: read\ninput:\n  type: object\n  properties:\n    label: { type: string, maxLength: 3 }\n    root: { $ref: ${JSON.stringify(`types.yaml#/${name}`)} }\noutput: { type: object }\n${ERRORS}`);
      return contractsFromYaml({ "types.yaml": `types:\n  ${name}:${node}`, "tree.yaml": tool }).tree!;
    }
    const tool = `effect: read\ninput:\n  type: object\n  properties:\n    label: { type: string, maxLength: 3 }\n    root: { $ref: ${ref} }\n  $defs:\n    ${JSON.stringify(name)}:${node}output: { type: object }\n${ERRORS}`;
    return contractsFromYaml({ "tree.yaml": toolYaml("tree", tool) }).tree!;
  }
  const compiled = new Map<string, ReturnType<typeof treeTool>>();
  const treeOf = (where: "named" | "defs", name: string, children: string) => {
    const key = JSON.stringify([where, name, children]);
    if (!compiled.has(key)) compiled.set(key, treeTool(where, name, children));
    return compiled.get(key)!;
  };

  const m = runs(4, 30);
  it(`a secret at any depth of a recursive named type, or of a $defs entry under any name, appears in no envelope or trace (${m} runs)`, async () => {
    const scenario = fc.record({
      where: fc.constantFrom<"named" | "defs">("named", "defs"),
      typeName: fc.constantFrom("Tree", "Folder", "Node"),
      defsName: fc.string({ unit: fc.constantFrom("a", "/", "~", "%", " ", "0", "1", "é", "#"), minLength: 1, maxLength: 6 }),
      children: fc.constantFrom("children", "sub items", "a/b", "~0"),
      // Each level through children is two levels of data (an object, then an array); the copy allows 256.
      path: fc.array(fc.constantFrom("children", "next"), { maxLength: 100, size: "max" }),
      siblings: fc.integer({ min: 0, max: 2 }),
      asKey: fc.boolean(),
      secret,
      failing,
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ where, typeName, defsName, children, path, siblings, asKey, secret: s, failing: how }) => {
        const contract = treeOf(where, where === "named" ? typeName : defsName, children);
        let node: Record<string, unknown> = asKey ? { label: "lf", vault: { [s]: "x" } } : { label: "lf", secret: s };
        for (const step of path) {
          node = step === "next" ? { label: "n", next: node } : { label: "c", [children]: [...Array.from({ length: siblings }, () => ({ label: "s" })), node] };
        }
        await expectNoLeak(contract, { root: node }, s, how);
      }),
      { numRuns: m, seed: CHAOS_SEED },
    );
  }, timeoutFor(m, 100));
});
