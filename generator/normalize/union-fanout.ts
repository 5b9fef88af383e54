/**
 * Recursive types whose validation time would grow exponentially with
 * nesting. Inside a recursive type, a union (or an `allOf`, or a `$ref` with
 * keywords beside it) whose branches both validate one part of the value
 * against the same recursive type validates that part twice at each level
 * of nesting: 2^depth times in all. Ajv validates every branch of a union
 * (with `allErrors`, in full, whatever failed first), so nothing at run time
 * stops it; such a schema is refused here instead.
 *
 * Two branches are followed together, step by step into the same parts of
 * one value, as far as both can go: a property both name (or one names and
 * the other's `additionalProperties` covers), an item both describe. Where
 * they meet at the same recursive definition, the value's validation doubles
 * there. Branches of different JSON types never meet (one looks into an
 * array's items, the other into an object's properties), and a tagged
 * union's branches are never both validated (Ajv's discriminator decides by
 * the tag alone, generator/discriminators.ts), so those are safe. What
 * remains is reported at the branching keyword, naming the two branches and
 * the part of the value both validate.
 */
import { localResolver, taggedUnion, type RefResolver } from "../discriminators.js";
import type { JsonObject, JsonSchema, JsonValue } from "../ir.js";
import type { JsonPath } from "../load/index.js";
import { isJsonObject } from "../schema/json.js";
import { defsEntryName } from "../schema/refs.js";
import { SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS } from "../schema/walk.js";

/** A step from a value into a part of it: a property name, any property (`*`), or any item (`[]`). */
type Step = string;
const ANY_PROPERTY = "*";
const ANY_ITEM = "[]";

/** One problem: the branching keyword, by its path inside the definition, and what to say about it. */
export interface Fanout {
  readonly def: string;
  readonly path: JsonPath;
  readonly message: string;
}

/** Where a property or item step may go from `node`: `[step, subschema]`. */
function steps(node: JsonObject): [Step, JsonValue][] {
  const out: [Step, JsonValue][] = [];
  if (isJsonObject(node.properties)) for (const [name, sub] of Object.entries(node.properties)) out.push([name, sub]);
  if (isJsonObject(node.additionalProperties)) out.push([ANY_PROPERTY, node.additionalProperties]);
  if (isJsonObject(node.items)) out.push([ANY_ITEM, node.items]);
  if (Array.isArray(node.prefixItems)) for (const sub of node.prefixItems) out.push([ANY_ITEM, sub]);
  return out;
}

/** The step two schemas both take into the same part of a value, if they can: the more specific of the two. */
function meet(a: Step, b: Step): Step | undefined {
  if (a === ANY_ITEM || b === ANY_ITEM) return a === b ? a : undefined;
  if (a === b || b === ANY_PROPERTY) return a;
  return a === ANY_PROPERTY ? b : undefined;
}

function describeAt(at: readonly Step[]): string {
  if (at.length === 0) return "the same value";
  let text = "";
  for (const step of at) text = step === ANY_ITEM ? `${text}[]` : text === "" ? step : `${text}.${step}`;
  return `\`${text}\``;
}

class Analysis {
  readonly #defs: Readonly<Record<string, JsonSchema>>;
  readonly #resolve: RefResolver;
  /** The strongly connected component of each `$defs` entry on a cycle. */
  readonly #component = new Map<string, number>();
  readonly #edges = new Map<string, string[]>();
  /** Per component: the entries from which it can be reached. */
  readonly #reaching = new Map<number, Set<string>>();
  readonly #refsBelow = new WeakMap<object, Set<string>>();
  readonly #ids = new Map<object, number>();

  constructor(root: JsonObject) {
    this.#defs = isJsonObject(root.$defs) ? (root.$defs as Record<string, JsonSchema>) : {};
    this.#resolve = localResolver(root);
    for (const name of Object.keys(this.#defs)) this.#edges.set(name, [...this.refsBelow(this.#defs[name] as JsonValue)]);
    this.#findCycles();
  }

  /** The `$defs` entries a `$ref` anywhere below `schema` names (schema positions only, never enum or const data). */
  refsBelow(schema: JsonValue): Set<string> {
    if (!isJsonObject(schema) && !Array.isArray(schema)) return new Set();
    const known = this.#refsBelow.get(schema);
    if (known !== undefined) return known;
    const into = new Set<string>();
    this.#refsBelow.set(schema, into);
    if (Array.isArray(schema)) for (const v of schema) for (const r of this.refsBelow(v)) into.add(r);
    else {
      for (const [key, value] of Object.entries(schema)) {
        if (key === "$ref" && typeof value === "string") {
          const name = defsEntryName(value);
          if (name !== undefined && Object.hasOwn(this.#defs, name)) into.add(name);
        } else if (key !== "enum" && key !== "const" && key !== "default" && key !== "examples") for (const r of this.refsBelow(value)) into.add(r);
      }
    }
    return into;
  }

  /** Tarjan's algorithm over the `$defs` graph. */
  #findCycles(): void {
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    let counter = 0;
    let components = 0;
    const connect = (name: string): void => {
      index.set(name, counter);
      low.set(name, counter++);
      stack.push(name);
      onStack.add(name);
      for (const next of this.#edges.get(name) ?? []) {
        if (!index.has(next)) {
          connect(next);
          low.set(name, Math.min(low.get(name) as number, low.get(next) as number));
        } else if (onStack.has(next)) low.set(name, Math.min(low.get(name) as number, index.get(next) as number));
      }
      if (low.get(name) !== index.get(name)) return;
      const members: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = member === name ? undefined : stack.pop()) {
        onStack.delete(member);
        members.push(member);
      }
      if (members.length > 1 || (this.#edges.get(name) ?? []).includes(name)) for (const member of members) this.#component.set(member, components);
      components++;
    };
    for (const name of this.#edges.keys()) if (!index.has(name)) connect(name);
  }

  /** The entries on a cycle. */
  recursive(): string[] {
    return [...this.#component.keys()];
  }

  componentOf(def: string): number | undefined {
    return this.#component.get(def);
  }

  /** The entries from which a definition of `component` can be reached (its members included). */
  #reachingOf(component: number): Set<string> {
    let reaching = this.#reaching.get(component);
    if (reaching !== undefined) return reaching;
    reaching = new Set([...this.#component].filter(([, c]) => c === component).map(([name]) => name));
    for (let grew = true; grew;) {
      grew = false;
      for (const [name, targets] of this.#edges) {
        if (!reaching.has(name) && targets.some((t) => reaching?.has(t))) {
          reaching.add(name);
          grew = true;
        }
      }
    }
    this.#reaching.set(component, reaching);
    return reaching;
  }

  /** Whether validating against `schema` can come back into `component`. */
  leadsInto(schema: JsonValue, component: number): boolean {
    const reaching = this.#reachingOf(component);
    for (const ref of this.refsBelow(schema)) if (reaching.has(ref)) return true;
    return false;
  }

  /** Subschemas applied to the same value as `node`: its `$ref`'s target, and its allOf/anyOf/oneOf branches. */
  sameValue(node: JsonObject): JsonValue[] {
    const out: JsonValue[] = [];
    const target = typeof node.$ref === "string" ? defsEntryName(node.$ref) : undefined;
    if (target !== undefined && Object.hasOwn(this.#defs, target)) out.push(this.#defs[target] as JsonValue);
    for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
      const branches = node[keyword];
      if (Array.isArray(branches)) out.push(...branches);
    }
    return out;
  }

  id(node: object): number {
    let id = this.#ids.get(node);
    if (id === undefined) this.#ids.set(node, (id = this.#ids.size));
    return id;
  }

  taggedUnion(node: JsonObject): ReturnType<typeof taggedUnion> {
    return taggedUnion(node, this.#resolve);
  }

  def(name: string): JsonValue {
    return this.#defs[name] as JsonValue;
  }
}

/**
 * Follows two branches together into the same parts of a value; the path at
 * which both apply one schema that leads back into `component`, or
 * undefined when they never do. Each pair of schemas is visited once, so
 * this ends on recursive schemas too.
 */
function meeting(a: JsonValue, b: JsonValue, component: number, analysis: Analysis): Step[] | undefined {
  const seen = new Set<string>();
  const queue: { a: JsonValue; b: JsonValue; at: Step[] }[] = [{ a, b, at: [] }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { a: x, b: y, at } = next;
    if (!isJsonObject(x) || !isJsonObject(y)) continue;
    const key = `${analysis.id(x)},${analysis.id(y)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (x === y && analysis.leadsInto(x, component)) return at;
    for (const sub of analysis.sameValue(x)) queue.push({ a: sub, b: y, at });
    for (const sub of analysis.sameValue(y)) queue.push({ a: x, b: sub, at });
    for (const [stepX, subX] of steps(x)) {
      for (const [stepY, subY] of steps(y)) {
        const step = meet(stepX, stepY);
        if (step !== undefined) queue.push({ a: subX, b: subY, at: [...at, step] });
      }
    }
  }
  return undefined;
}

/** The branches of the branching keywords at `node`: unions (not tagged ones), `allOf`, and a `$ref` with applicators beside it. */
function branchings(node: JsonObject, analysis: Analysis): { keyword: string; branches: JsonValue[] }[] {
  const out: { keyword: string; branches: JsonValue[] }[] = [];
  const tagged = analysis.taggedUnion(node)?.keyword;
  for (const keyword of ["anyOf", "oneOf", "allOf"] as const) {
    const branches = node[keyword];
    if (Array.isArray(branches) && branches.length > 1 && keyword !== tagged) out.push({ keyword, branches });
  }
  if (typeof node.$ref === "string") {
    const { $ref, ...siblings } = node;
    out.push({ keyword: "$ref", branches: [{ $ref }, siblings] });
  }
  return out;
}

function fanoutMessage(keyword: string, i: number, j: number, at: readonly Step[]): string {
  const who = keyword === "$ref" ? "this `$ref` and the keywords beside it both" : `branches ${i + 1} and ${j + 1} of this \`${keyword}\` both`;
  const fix =
    keyword === "anyOf" || keyword === "oneOf"
      ? "give the branches different types, tell them apart by a tag (each branch `type: object`, requiring one property with a string `const` of its own), or move the shared part out of the union"
      : "validate that part in one place only";
  return `validation time would grow exponentially with nesting: ${who} validate ${describeAt(at)} against the same recursive type, so each level of nesting validates it once more per branch; ${fix}`;
}

/** Walks a definition's body, calling `visit` on each schema node with its path. */
function walk(schema: JsonValue, path: JsonPath, visit: (node: JsonObject, path: JsonPath) => void): void {
  if (!isJsonObject(schema)) return;
  visit(schema, path);
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && isJsonObject(value)) for (const [name, sub] of Object.entries(value)) walk(sub, [...path, key, name], visit);
    else if ((SCHEMA_KEYWORDS as readonly string[]).includes(key) && isJsonObject(value)) walk(value, [...path, key], visit);
    else if ((SCHEMA_LIST_KEYWORDS as readonly string[]).includes(key) && Array.isArray(value)) value.forEach((sub, i) => walk(sub, [...path, key, i], visit));
  }
}

/**
 * The branching keywords, in the recursive `$defs` entries of `root`, that
 * make validation time exponential in the nesting of the value; `only`
 * limits the entries checked (those declared in the file at hand).
 */
export function findFanouts(root: JsonObject, only: (def: string) => boolean = () => true): Fanout[] {
  const analysis = new Analysis(root);
  const out: Fanout[] = [];
  for (const def of analysis.recursive().filter(only).sort()) {
    const component = analysis.componentOf(def) as number;
    walk(analysis.def(def), [], (node, path) => {
      for (const { keyword, branches } of branchings(node, analysis)) {
        const found = firstMeeting(branches, component, analysis);
        if (found !== undefined) out.push({ def, path: [...path, keyword], message: fanoutMessage(keyword, found.i, found.j, found.at) });
      }
    });
  }
  return out;
}

function firstMeeting(branches: readonly JsonValue[], component: number, analysis: Analysis): { i: number; j: number; at: Step[] } | undefined {
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) {
      const at = meeting(branches[i] as JsonValue, branches[j] as JsonValue, component, analysis);
      if (at !== undefined) return { i, j, at };
    }
  }
  return undefined;
}
