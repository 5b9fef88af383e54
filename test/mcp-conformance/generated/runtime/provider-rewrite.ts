// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Rewrites a served input schema into a provider's dialect. Keywords the
 * provider cannot enforce are dropped from the provider's copy and named in
 * the node's description; toolc's own validator still enforces them, since
 * every call goes through the executor. What the dialect cannot express at
 * all (an open map, a tuple, a recursive type) is a problem: the tool then
 * cannot take the provider's strict form.
 *
 * One implementation for the compiler and a generated project: the compiler
 * rewrites each tool to decide strictness and write its warnings, and a
 * project's providers.ts rewrites the served schema again at load, so its
 * exports are the compiler's without a second copy of every schema on disk.
 */
import type { JsonSchemaObject } from "./contract.js";
import type { NullPlan } from "./provider-nulls.js";
import {
  allowsNull,
  defsEntryName,
  distributeUnion,
  enumTypes,
  isSchemaObject,
  mergeAllOf,
  nullable,
  type SchemaPath,
  type SchemaProblem,
  typesOf,
  withDescription,
} from "./provider-schema.js";

export interface DialectRules {
  /** Keywords the provider enforces, kept as written (structure keywords are handled on their own). */
  readonly keeps: ReadonlySet<string>;
  /** `format` values the provider knows; any other format is dropped. */
  readonly formats: ReadonlySet<string>;
  /** OpenAI strict: every property required, optional ones written as nullable. */
  readonly requireAll: boolean;
  /** Strict forms need `additionalProperties: false` on every object. */
  readonly closedObjects: boolean;
  /** Anthropic strict: `minItems` of 0 or 1 only. */
  readonly maxMinItems?: number;
  /** Whether the provider keeps this `pattern` (Anthropic's regex subset). */
  readonly patternSupported?: (pattern: string) => boolean;
}

export interface Rewritten {
  readonly schema: JsonSchemaObject;
  readonly problems: readonly SchemaProblem[];
  /** Whether an object open to extra keys was closed: values with extra keys fit the served schema but not this one. */
  readonly closedOpenObjects: boolean;
  /** With `requireAll`: where a null means "left out". */
  readonly nulls?: {
    readonly root: NullPlan;
    readonly defs: Record<string, NullPlan>;
  };
}

interface Context {
  readonly rules: DialectRules;
  /** The served schema's `$defs`, for null checks through `$ref`. */
  readonly defs: JsonSchemaObject;
  readonly problems: SchemaProblem[];
  closedOpenObjects: boolean;
}

interface NodeResult {
  schema: JsonSchemaObject;
  plan?: NullPlan;
}

/** Keywords the rewriter handles itself, whatever the dialect. */
const STRUCTURE = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "$defs",
  "enum",
  "const",
  "description",
  "title",
  "format",
  "pattern",
  "minItems",
]);

/** Annotations that say nothing a model needs (`$schema` names the contract's dialect, not the provider's): dropped without a word. */
const SILENT = new Set(["$comment", "$schema", "readOnly", "writeOnly"]);

function isEmptyPlan(plan: NullPlan | undefined): boolean {
  return plan === undefined || Object.keys(plan).length === 0;
}

function rewriteProperties(
  node: JsonSchemaObject,
  path: SchemaPath,
  ctx: Context,
  out: NodeResult,
): void {
  const properties = isSchemaObject(node["properties"])
    ? node["properties"]
    : {};
  const required = new Set(
    Array.isArray(node["required"])
      ? node["required"].filter((r): r is string => typeof r === "string")
      : [],
  );
  const rewritten: JsonSchemaObject = {};
  const plans: Record<string, NullPlan> = {};
  const absentIfNull: string[] = [];
  for (const [name, child] of Object.entries(properties)) {
    const result = rewrite(child, [...path, "properties", name], ctx);
    let schema = result.schema;
    if (
      ctx.rules.requireAll &&
      !required.has(name) &&
      !allowsNull(child, ctx.defs)
    ) {
      schema = nullable(schema);
      absentIfNull.push(name);
    }
    rewritten[name] = schema;
    if (!isEmptyPlan(result.plan)) plans[name] = result.plan as NullPlan;
  }
  // A strict object lists its properties (maybe none) and requires every one of them.
  if (node["properties"] !== undefined || ctx.rules.requireAll)
    out.schema["properties"] = rewritten;
  if (ctx.rules.requireAll) out.schema["required"] = Object.keys(properties);
  else if (node["required"] !== undefined)
    out.schema["required"] = node["required"];
  const plan: {
    absentIfNull?: string[];
    properties?: Record<string, NullPlan>;
  } = {};
  if (absentIfNull.length > 0) plan.absentIfNull = absentIfNull;
  if (Object.keys(plans).length > 0) plan.properties = plans;
  if (ctx.rules.requireAll) out.plan = { ...out.plan, ...plan };
}

function hasDeclaredProperties(node: JsonSchemaObject): boolean {
  return (
    isSchemaObject(node["properties"]) &&
    Object.keys(node["properties"]).length > 0
  );
}

/** An object whose every property is in its union's branches (a distributed union): the branches carry the shape. */
function shapedByBranches(node: JsonSchemaObject): boolean {
  return (
    node["properties"] === undefined &&
    node["additionalProperties"] === undefined &&
    (Array.isArray(node["anyOf"]) || Array.isArray(node["oneOf"]))
  );
}

function rewriteObjectShape(
  node: JsonSchemaObject,
  path: SchemaPath,
  ctx: Context,
  out: NodeResult,
): void {
  const isObjectNode =
    typesOf(node).includes("object") || node["properties"] !== undefined;
  if (!isObjectNode || shapedByBranches(node)) return;
  rewriteProperties(node, path, ctx, out);
  const extra = node["additionalProperties"];
  if (extra === false) out.schema["additionalProperties"] = false;
  else if (
    ctx.rules.closedObjects &&
    (extra === true || extra === undefined) &&
    hasDeclaredProperties(node)
  ) {
    // Open only to tolerate extra keys (typical of imported MCP tools): the strict form offers the model
    // exactly the declared properties, every call it can make is valid, and toolc still accepts extras from others.
    out.schema["additionalProperties"] = false;
    ctx.closedOpenObjects = true;
  } else if (ctx.rules.closedObjects) {
    const what = isSchemaObject(extra)
      ? "an open map (additionalProperties with a schema)"
      : "an object with no declared properties (any keys)";
    ctx.problems.push({
      path: [...path, "additionalProperties"],
      message: `${what} has no strict form`,
    });
  } else if (extra !== undefined)
    out.schema["additionalProperties"] = rewrite(
      extra,
      [...path, "additionalProperties"],
      ctx,
    ).schema;
}

function rewriteBranches(
  key: "anyOf" | "oneOf" | "allOf",
  node: JsonSchemaObject,
  path: SchemaPath,
  ctx: Context,
  out: NodeResult,
): void {
  const branches = node[key];
  if (!Array.isArray(branches)) return;
  const results = branches.map((b, i) => rewrite(b, [...path, key, i], ctx));
  const target = key === "allOf" ? "allOf" : "anyOf";
  out.schema[target] = [
    ...(Array.isArray(out.schema[target])
      ? (out.schema[target] as unknown[])
      : []),
    ...results.map((r) => r.schema),
  ];
  if (!ctx.rules.requireAll || key === "allOf") return;
  const planned = results.flatMap((r, i) => {
    const branch = branches[i];
    const keys =
      isSchemaObject(branch) && isSchemaObject(branch["properties"])
        ? Object.keys(branch["properties"])
        : undefined;
    return keys === undefined || isEmptyPlan(r.plan)
      ? []
      : [{ keys, plan: r.plan as NullPlan }];
  });
  if (planned.length > 0)
    out.plan = { ...out.plan, anyOf: [...(out.plan?.anyOf ?? []), ...planned] };
}

function rewriteItems(
  node: JsonSchemaObject,
  path: SchemaPath,
  ctx: Context,
  out: NodeResult,
  dropped: [string, unknown][],
): void {
  if (
    ctx.rules.closedObjects &&
    typesOf(node).includes("array") &&
    node["items"] === undefined &&
    node["prefixItems"] === undefined
  ) {
    ctx.problems.push({
      path,
      message: "an array of values of any type (no items) has no strict form",
    });
  }
  if (node["items"] !== undefined) {
    const items = rewrite(node["items"], [...path, "items"], ctx);
    out.schema["items"] = items.schema;
    if (!isEmptyPlan(items.plan))
      out.plan = { ...out.plan, items: items.plan as NullPlan };
  }
  if (Array.isArray(node["prefixItems"])) {
    if (ctx.rules.keeps.has("prefixItems"))
      out.schema["prefixItems"] = node["prefixItems"].map(
        (p, i) => rewrite(p, [...path, "prefixItems", i], ctx).schema,
      );
    else
      ctx.problems.push({
        path: [...path, "prefixItems"],
        message: "a tuple (prefixItems) has no strict form",
      });
  }
  if (typeof node["minItems"] === "number") {
    const limit = ctx.rules.maxMinItems;
    if (limit === undefined || node["minItems"] <= limit)
      out.schema["minItems"] = node["minItems"];
    else dropped.push(["minItems", node["minItems"]]);
  }
}

function rewriteValues(
  node: JsonSchemaObject,
  path: SchemaPath,
  ctx: Context,
  out: NodeResult,
): void {
  const values = Array.isArray(node["enum"])
    ? node["enum"]
    : Object.hasOwn(node, "const")
      ? [node["const"]]
      : undefined;
  if (values === undefined) return;
  // const becomes a one-value enum, which every dialect knows; a missing type is spelled out.
  out.schema["enum"] = values;
  if (node["type"] === undefined) {
    const types = enumTypes(values);
    out.schema["type"] = types.length === 1 ? (types[0] as string) : types;
  }
  if (
    ctx.rules.closedObjects &&
    values.some((v) => v !== null && typeof v === "object")
  ) {
    ctx.problems.push({
      path: [...path, Array.isArray(node["enum"]) ? "enum" : "const"],
      message: "an enum of objects or arrays has no strict form",
    });
  }
}

function rewriteStrings(
  node: JsonSchemaObject,
  ctx: Context,
  out: NodeResult,
  dropped: [string, unknown][],
): void {
  if (typeof node["format"] === "string") {
    if (ctx.rules.formats.has(node["format"]))
      out.schema["format"] = node["format"];
    else dropped.push(["format", node["format"]]);
  }
  if (typeof node["pattern"] === "string") {
    const kept =
      ctx.rules.keeps.has("pattern") &&
      (ctx.rules.patternSupported?.(node["pattern"]) ?? true);
    if (kept) out.schema["pattern"] = node["pattern"];
    else dropped.push(["pattern", node["pattern"]]);
  }
}

function rewriteObject(
  written: JsonSchemaObject,
  path: SchemaPath,
  ctx: Context,
): NodeResult {
  const node =
    mergeAllOf(written, ctx.defs) ??
    distributeUnion(written, ctx.defs) ??
    written;
  const out: NodeResult = { schema: {} };
  const dropped: [string, unknown][] = [];
  if (node["type"] !== undefined) out.schema["type"] = node["type"];
  if (typeof node["title"] === "string") out.schema["title"] = node["title"];
  if (typeof node["description"] === "string")
    out.schema["description"] = node["description"];
  if (typeof node["$ref"] === "string") {
    out.schema["$ref"] = node["$ref"];
    const name = defsEntryName(node["$ref"]);
    if (ctx.rules.requireAll && name !== undefined) out.plan = { ref: name };
  }
  rewriteValues(node, path, ctx, out);
  rewriteStrings(node, ctx, out, dropped);
  rewriteObjectShape(node, path, ctx, out);
  rewriteItems(node, path, ctx, out, dropped);
  rewriteBranches("anyOf", node, path, ctx, out);
  rewriteBranches("oneOf", node, path, ctx, out);
  if (Array.isArray(node["oneOf"])) dropped.push(["oneOf", true]);
  if (Array.isArray(node["allOf"])) {
    if (ctx.rules.keeps.has("allOf"))
      rewriteBranches("allOf", node, path, ctx, out);
    else if (ctx.rules.closedObjects)
      ctx.problems.push({
        path: [...path, "allOf"],
        message: "allOf has no strict form",
      });
    else dropped.push(["allOf", node["allOf"]]);
  }
  for (const [key, value] of Object.entries(node)) {
    if (STRUCTURE.has(key) || SILENT.has(key) || key.startsWith("x-")) continue;
    if (ctx.rules.keeps.has(key)) out.schema[key] = value;
    else dropped.push([key, value]);
  }
  out.schema = withDescription(out.schema, dropped);
  return out;
}

function constrainsSomething(node: JsonSchemaObject): boolean {
  return [
    "type",
    "enum",
    "const",
    "$ref",
    "anyOf",
    "oneOf",
    "allOf",
    "properties",
  ].some((key) => Object.hasOwn(node, key));
}

function rewrite(node: unknown, path: SchemaPath, ctx: Context): NodeResult {
  if (!isSchemaObject(node) || !constrainsSomething(node)) {
    if (ctx.rules.closedObjects)
      ctx.problems.push({
        path,
        message:
          node === false
            ? "a schema that accepts nothing has no strict form"
            : "a value of any type has no strict form",
      });
    return {
      schema: isSchemaObject(node) ? rewriteObject(node, path, ctx).schema : {},
    };
  }
  return rewriteObject(node, path, ctx);
}

/** `plan` without the branches that can never remove a null; undefined when nothing is left. */
function prunePlan(
  plan: NullPlan | undefined,
  defs: Record<string, NullPlan>,
): NullPlan | undefined {
  if (plan === undefined) return undefined;
  if (plan.ref !== undefined)
    return Object.hasOwn(defs, plan.ref) ? plan : undefined;
  const pruned: { -readonly [K in keyof NullPlan]: NullPlan[K] } = {};
  if (plan.absentIfNull !== undefined) pruned.absentIfNull = plan.absentIfNull;
  const properties = Object.entries(plan.properties ?? {}).flatMap(
    ([name, child]) => {
      const kept = prunePlan(child, defs);
      return kept === undefined ? [] : [[name, kept] as const];
    },
  );
  if (properties.length > 0) pruned.properties = Object.fromEntries(properties);
  const items = prunePlan(plan.items, defs);
  if (items !== undefined) pruned.items = items;
  const branches = (plan.anyOf ?? []).flatMap((b) => {
    const kept = prunePlan(b.plan, defs);
    return kept === undefined ? [] : [{ keys: b.keys, plan: kept }];
  });
  if (branches.length > 0) pruned.anyOf = branches;
  return Object.keys(pruned).length === 0 ? undefined : pruned;
}

/** Drops `$defs` plans that remove no null anywhere, until none is left to drop (refs can form cycles). */
function pruneRefs(defs: Record<string, NullPlan>): void {
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, plan] of Object.entries(defs)) {
      const kept = prunePlan(plan, defs);
      if (kept === undefined) {
        delete defs[name];
        changed = true;
      } else defs[name] = kept;
    }
  }
}

/** The served input schema in one provider's dialect. */
export function rewriteSchema(
  served: JsonSchemaObject,
  rules: DialectRules,
): Rewritten {
  const defs = isSchemaObject(served["$defs"]) ? served["$defs"] : {};
  const ctx: Context = { rules, defs, problems: [], closedOpenObjects: false };
  const { $defs: _defs, ...rootNode } = served;
  const root = rewrite(rootNode, [], ctx);
  const defPlans: Record<string, NullPlan> = {};
  const rewrittenDefs: JsonSchemaObject = {};
  for (const [name, def] of Object.entries(defs)) {
    const result = rewrite(def, ["$defs", name], ctx);
    rewrittenDefs[name] = result.schema;
    if (!isEmptyPlan(result.plan)) defPlans[name] = result.plan as NullPlan;
  }
  pruneRefs(defPlans);
  const rootPlan = prunePlan(root.plan, defPlans);
  const schema =
    Object.keys(rewrittenDefs).length > 0
      ? { ...root.schema, $defs: rewrittenDefs }
      : root.schema;
  if (!rules.requireAll)
    return {
      schema,
      problems: ctx.problems,
      closedOpenObjects: ctx.closedOpenObjects,
    };
  return {
    schema,
    problems: ctx.problems,
    closedOpenObjects: ctx.closedOpenObjects,
    ...(rootPlan === undefined
      ? {}
      : { nulls: { root: rootPlan, defs: defPlans } }),
  };
}
