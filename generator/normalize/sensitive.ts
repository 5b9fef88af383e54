/**
 * `x-sensitive`: where a tool's input or output can hold a sensitive value,
 * compiled into the automaton the runtime walks (SensitivePaths in
 * runtime/contract.ts), and the rules a contract must follow for every such
 * place to be tracked. The automaton is built from the served schema, with
 * its `$defs`, so recursion (`tree.children[0].secret`), any depth and any
 * `$defs` name are covered: it is a path pattern, not a list of paths.
 */
import { Codes, error, warning } from "../diagnostics.js";
import type { Diagnostic, JsonObject, JsonSchema, SensitiveNode, SensitivePaths } from "../ir.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import { isJsonObject } from "../schema/json.js";
import { resolveLocalRef } from "../schema/refs.js";
import { SCHEMA_LIST_KEYWORDS } from "../schema/walk.js";

type Kind = "secret" | "withhold";

/** Past this many states the automaton is refused rather than emitted (each state is a set of schema nodes; real schemas need a handful). */
export const MAX_SENSITIVE_STATES = 4_096;

/** One schema node, indexed: what it marks, and where its children go. */
interface Node {
  readonly kind: Kind | undefined;
  /** Nodes that apply to the same value: the `$ref` target and the `anyOf`/`oneOf`/`allOf` branches. */
  readonly same: number[];
  /** By property name; undefined for a property whose schema is `true` or `false`, which nothing below can mark. */
  readonly properties: ReadonlyMap<string, number | undefined>;
  readonly additional: number | undefined;
  readonly prefix: number[];
  readonly items: number | undefined;
}

function kindOf(schema: JsonObject, purpose: "input" | "output"): Kind | undefined {
  const mark = schema["x-sensitive"];
  if (mark === true) return "secret";
  // Withholding is for output; on input (a named type shared with output, say) the value is a secret like any other.
  if (mark === "withhold") return purpose === "output" ? "withhold" : "secret";
  return undefined;
}

/** The schema `ref` points to inside `root` (a local `#…` pointer, percent- and `~`-decoded); undefined if it does not resolve. */
function resolveRef(root: JsonObject, ref: string): JsonObject | undefined {
  const node = resolveLocalRef(root, ref);
  return isJsonObject(node) ? node : undefined;
}

/** Every schema node reachable from the root, by id (the root is 0), or the `$ref` that does not resolve. */
function indexSchema(root: JsonObject, purpose: "input" | "output"): { nodes: Node[] } | { unresolved: string } {
  const ids = new Map<JsonObject, number>();
  const nodes: Node[] = [];
  const pending: JsonObject[] = [];
  const idOf = (schema: JsonSchema | undefined): number | undefined => {
    if (!isJsonObject(schema)) return undefined;
    let id = ids.get(schema);
    if (id === undefined) {
      id = ids.size;
      ids.set(schema, id);
      pending.push(schema);
    }
    return id;
  };
  idOf(root);
  for (let next = 0; next < pending.length; next++) {
    const schema = pending[next] as JsonObject;
    const same: number[] = [];
    if (typeof schema.$ref === "string") {
      const target = resolveRef(root, schema.$ref);
      if (target === undefined) return { unresolved: schema.$ref };
      same.push(idOf(target) as number);
    }
    for (const key of ["anyOf", "oneOf", "allOf"] as const) {
      const list = schema[key];
      if (Array.isArray(list)) for (const branch of list) pushDefined(same, idOf(branch as JsonSchema));
    }
    const properties = new Map<string, number | undefined>();
    if (isJsonObject(schema.properties)) {
      for (const [name, sub] of Object.entries(schema.properties)) properties.set(name, idOf(sub as JsonSchema));
    }
    const prefix: number[] = [];
    if (Array.isArray(schema.prefixItems)) for (const item of schema.prefixItems) prefix.push(idOf(item as JsonSchema) ?? -1);
    const additional = idOf(schema.additionalProperties as JsonSchema | undefined);
    const items = idOf(schema.items as JsonSchema | undefined);
    nodes[next] = { kind: kindOf(schema, purpose), same, properties, additional, prefix, items };
  }
  return { nodes };
}

function hasContent(node: Node): boolean {
  return node.kind !== undefined || node.properties.size > 0 || node.additional !== undefined || node.prefix.length > 0 || node.items !== undefined;
}

function pushDefined(into: number[], id: number | undefined): void {
  if (id !== undefined) into.push(id);
}

/** The nodes from which a sensitive node can be reached: the only ones the automaton needs. */
function liveNodes(nodes: readonly Node[]): boolean[] {
  const parents: number[][] = nodes.map(() => []);
  nodes.forEach((node, id) => {
    const children = [...node.same, ...node.properties.values(), ...node.prefix, node.additional, node.items];
    for (const child of children) if (child !== undefined && child >= 0) parents[child]?.push(id);
  });
  const live = nodes.map((node) => node.kind !== undefined);
  const stack = nodes.map((_, id) => id).filter((id) => live[id]);
  while (stack.length > 0) {
    for (const parent of parents[stack.pop() as number] ?? []) {
      if (live[parent]) continue;
      live[parent] = true;
      stack.push(parent);
    }
  }
  return live;
}

/**
 * Builds the deterministic automaton by subset construction: a state is the
 * set of live schema nodes that apply to one value (closed under `$ref` and
 * the union keywords), and a transition is the set that applies to a child.
 */
class Builder {
  readonly states: SensitiveNode[] = [];
  readonly #keys = new Map<string, number>();
  readonly #pending: number[][] = [];

  constructor(
    readonly nodes: readonly Node[],
    readonly live: readonly boolean[],
  ) {}

  /** The id of the state for the nodes in `ids` and all that apply with them; undefined when none can hold a sensitive value. */
  state(ids: readonly number[]): number | undefined {
    const closed = new Set<number>();
    const stack = ids.filter((id) => id >= 0 && this.live[id]);
    while (stack.length > 0) {
      const id = stack.pop() as number;
      if (closed.has(id)) continue;
      closed.add(id);
      for (const same of this.nodes[id]?.same ?? []) if (this.live[same]) stack.push(same);
    }
    // A node that is only a `$ref` or a union adds nothing of its own once its targets are in: leaving it out lets
    // the same type reached by two properties be one state.
    const members = [...closed].filter((id) => hasContent(this.nodes[id] as Node)).sort((a, b) => a - b);
    if (members.length === 0) return undefined;
    // A sensitive value is all one state, told apart only by its kind and the names declared inside it.
    const sensitive = this.#sensitive(members);
    const key = sensitive === undefined ? members.join(",") : JSON.stringify(sensitive);
    let state = this.#keys.get(key);
    if (state === undefined) {
      state = this.#keys.size;
      this.#keys.set(key, state);
      this.#pending.push(members);
    }
    return state;
  }

  /** Works through every state found, up to `max`; false if there were more. */
  build(max: number): boolean {
    for (let next = 0; next < this.#pending.length; next++) {
      if (next >= max) return false;
      this.states[next] = this.#describe(this.#pending[next] as number[]);
    }
    return true;
  }

  /** The state of a sensitive value: its kind (withhold wins), and the property names the schema declares anywhere inside it. */
  #sensitive(members: readonly number[]): SensitiveNode | undefined {
    const kinds = members.map((id) => this.nodes[id]?.kind);
    const kind = kinds.includes("withhold") ? "withhold" : kinds.includes("secret") ? "secret" : undefined;
    if (kind === undefined) return undefined;
    const names = new Set<string>();
    const seen = new Set<number>();
    const stack = [...members];
    while (stack.length > 0) {
      const id = stack.pop() as number;
      const node = this.nodes[id];
      if (node === undefined || seen.has(id)) continue;
      seen.add(id);
      for (const [name, child] of node.properties) {
        names.add(name);
        if (child !== undefined) stack.push(child);
      }
      for (const child of [...node.same, ...node.prefix, node.additional, node.items]) if (child !== undefined && child >= 0) stack.push(child);
    }
    return names.size === 0 ? { sensitive: kind } : { sensitive: kind, declared: [...names].sort() };
  }

  #describe(members: readonly number[]): SensitiveNode {
    const sensitive = this.#sensitive(members);
    if (sensitive !== undefined) return sensitive;
    const nodes = members.map((id) => this.nodes[id] as Node);
    const out: { -readonly [K in keyof SensitiveNode]: SensitiveNode[K] } = {};
    const properties: Record<string, number> = Object.create(null) as Record<string, number>;
    const names = [...new Set(nodes.flatMap((n) => [...n.properties.keys()]))];
    for (const name of names) {
      // A key one branch names and another does not is, for that other, one of its additional properties.
      const targets = nodes.map((n) => (n.properties.has(name) ? n.properties.get(name) : n.additional)).filter((id): id is number => id !== undefined);
      const state = this.state(targets);
      if (state !== undefined) properties[name] = state;
    }
    if (Object.keys(properties).length > 0) out.properties = properties;
    const additional = this.state(nodes.map((n) => n.additional).filter((id): id is number => id !== undefined));
    if (additional !== undefined) out.additionalProperties = additional;
    const longest = Math.max(0, ...nodes.map((n) => n.prefix.length));
    const prefix: (number | null)[] = [];
    for (let i = 0; i < longest; i++) {
      const targets = nodes.map((n) => (i < n.prefix.length ? n.prefix[i] : n.items)).filter((id): id is number => id !== undefined);
      prefix.push(this.state(targets) ?? null);
    }
    if (prefix.some((state) => state !== null)) out.prefixItems = prefix;
    const items = this.state(nodes.map((n) => n.items).filter((id): id is number => id !== undefined));
    if (items !== undefined) out.items = items;
    return out;
  }
}

export type SensitiveAnalysis = { ok: true; paths: SensitivePaths } | { ok: false; problem: string; unresolvedRef?: string };

/**
 * The automaton for `root` (a served schema: `$ref`s point into its own
 * `$defs`); empty when nothing in it is sensitive. Fails, rather than
 * leaving a sensitive value untracked, when a `$ref` does not resolve or the
 * automaton would be too large.
 */
export function sensitivePaths(root: JsonObject, purpose: "input" | "output"): SensitiveAnalysis {
  const indexed = indexSchema(root, purpose);
  if ("unresolved" in indexed)
    return {
      ok: false,
      unresolvedRef: indexed.unresolved,
      problem: `\`$ref\` ${JSON.stringify(indexed.unresolved)} does not resolve, so the values it holds cannot be checked for \`x-sensitive\``,
    };
  const live = liveNodes(indexed.nodes);
  if (!live[0]) return { ok: true, paths: [] };
  const builder = new Builder(indexed.nodes, live);
  builder.state([0]);
  if (!builder.build(MAX_SENSITIVE_STATES)) {
    return {
      ok: false,
      problem: `where its \`x-sensitive\` values can be takes more than ${MAX_SENSITIVE_STATES} states to track; mark fewer places, or the union that holds them`,
    };
  }
  return { ok: true, paths: builder.states };
}

/** How a schema node was reached in the file: through a named property, as a map's value, or otherwise. */
type Place =
  | { readonly via: "property"; readonly owner: JsonObject; readonly name: string }
  | { readonly via: "additionalProperties"; readonly owner: JsonObject }
  | { readonly via: "other" };

/** Where a schema sits: in a tool's input or output, or in a named type (which either may use). */
export type SchemaHome = "input" | "output" | "type";

function withholdProblem(place: Place, home: SchemaHome): string | undefined {
  if (home === "input")
    return "`x-sensitive: withhold` keeps an output value from the caller; an input value comes from the caller, so mark it `x-sensitive: true`";
  if (place.via === "other")
    return "`x-sensitive: withhold` removes a value from the output, so it belongs on a property or on a map's `additionalProperties`, not on a root, an array item or a union branch (mark the property that holds this value)";
  const owner = place.owner;
  if (place.via === "property" && Array.isArray(owner.required) && owner.required.includes(place.name)) {
    return `property \`${place.name}\` is withheld, so no caller ever receives it, but its object lists it in \`required\`; make it optional`;
  }
  if (owner.minProperties !== undefined)
    return "a withheld value is removed from an object that sets `minProperties`, which could leave it with too few; drop `minProperties` or withhold nothing there";
  return undefined;
}

/** Whether `schema` or anything written inside it (not through a `$ref`) is marked sensitive. */
function marksSensitive(schema: JsonSchema): boolean {
  if (!isJsonObject(schema)) return false;
  if (schema["x-sensitive"] === true || schema["x-sensitive"] === "withhold") return true;
  return Object.values(schema).some((value) =>
    Array.isArray(value) ? value.some((v) => marksSensitive(v as JsonSchema)) : isJsonObject(value) && marksSensitive(value),
  );
}

/**
 * The rules for `x-sensitive` in one schema as written (a tool's input or
 * output, or a named type), located at the mark: `withhold` only where a
 * value can be removed, never under `propertyNames` (keys are hidden by
 * marking the map itself), and, on a tool's input, a warning (TC036) for a
 * sensitive map with no `maxProperties`, since every value of it is
 * collected on each call.
 */
export function lintSensitive(schema: JsonSchema, root: JsonPath, file: YamlSource, home: SchemaHome): Diagnostic[] {
  const out: Diagnostic[] = [];
  const visit = (node: JsonSchema, path: JsonPath, place: Place, underNames: boolean): void => {
    if (!isJsonObject(node)) return;
    const mark = node["x-sensitive"];
    if (underNames && (mark === true || mark === "withhold")) {
      out.push(
        error(
          file.locate([...path, "x-sensitive"]),
          Codes.untrackedSensitive,
          "`x-sensitive` under `propertyNames` marks keys, which are not tracked there; mark the map itself `x-sensitive: true`, which keeps its keys out of every path as well",
        ),
      );
    } else if (mark === "withhold") {
      const problem = withholdProblem(place, home);
      if (problem !== undefined) out.push(error(file.locate([...path, "x-sensitive"]), Codes.untrackedSensitive, problem));
    }
    const open = node.additionalProperties !== undefined && node.additionalProperties !== false;
    if (
      home === "input" &&
      open &&
      node.maxProperties === undefined &&
      (mark === true || mark === "withhold" || marksSensitive(node.additionalProperties as JsonSchema))
    ) {
      out.push(
        warning(
          file.locate([...path, "additionalProperties"], { key: true }),
          Codes.unboundedInput,
          "input is a sensitive map with no `maxProperties`; every value in it is collected for redaction on each call, and only the request size limits how many there are, so set an upper bound",
        ),
      );
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && isJsonObject(value)) {
        for (const [name, sub] of Object.entries(value)) visit(sub as JsonSchema, [...path, key, name], { via: "property", owner: node, name }, underNames);
      } else if (key === "additionalProperties") {
        visit(value as JsonSchema, [...path, key], { via: "additionalProperties", owner: node }, underNames);
      } else if (key === "propertyNames" || key === "items") {
        visit(value as JsonSchema, [...path, key], { via: "other" }, underNames || key === "propertyNames");
      } else if ((SCHEMA_LIST_KEYWORDS as readonly string[]).includes(key) && Array.isArray(value)) {
        value.forEach((sub, i) => visit(sub as JsonSchema, [...path, key, i], { via: "other" }, underNames));
      } else if (key === "$defs" && isJsonObject(value)) {
        for (const [name, sub] of Object.entries(value)) visit(sub as JsonSchema, [...path, key, name], { via: "other" }, underNames);
      }
    }
  };
  visit(schema, root, { via: "other" }, false);
  return out;
}
