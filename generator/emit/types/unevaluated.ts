/**
 * `unevaluatedProperties: false` over `allOf`, `anyOf` or `oneOf`: JSON
 * Schema 2020-12 Core §11.3. Normalize writes it on an object holding those
 * keywords, whose branches are then open only so they can be composed: a
 * property is allowed when some branch (or the node) declares it. Each branch
 * is therefore typed as closed, and the whole is the node's own shape (if it
 * declares any) and its branches: an intersection for allOf, a union for
 * anyOf and oneOf.
 */
import type { JsonObject, JsonSchema } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import type { RenderSchema, TypeContext } from "./context.js";
import { intersectionOf, unionOf, type TypeNode } from "../../printer/types/node.js";
import { OBJECT_KEYWORDS } from "./object.js";
import { annotationKeywords } from "../../schema/annotations.js";

/** Keywords that say nothing about the shape: a node with only these beside its branches adds no part of its own. */
/** Keywords that add no part of their own to a closed type: `type`, and JSON Schema's annotations (toolc's marks are not among them). */
const ANNOTATIONS: ReadonlySet<string> = new Set(["type", ...annotationKeywords("meta-data", "access", "default", "dialect")]);

const COMPOSITIONS = ["allOf", "anyOf", "oneOf"];

/** Whether `schema` is an object closed over its branches (`unevaluatedProperties: false` beside allOf, anyOf or oneOf). */
export function isClosedComposition(schema: JsonObject): boolean {
  return schema.unevaluatedProperties === false && COMPOSITIONS.some((k) => Array.isArray(schema[k]));
}

/** An object schema that says nothing of other properties, closed: under the node's `unevaluatedProperties: false` it admits none. */
function closedForTypes(schema: JsonSchema): JsonSchema {
  if (typeof schema !== "object" || "additionalProperties" in schema) return schema;
  return OBJECT_KEYWORDS.some((k) => k in schema) || schema.type === "object" ? { ...schema, additionalProperties: false } : schema;
}

/** `required` names the node declares itself: a name a branch declares is that branch's to type. */
function ownRequired(schema: JsonObject): JsonObject {
  if (!Array.isArray(schema.required)) return schema;
  const declared = isJsonObject(schema.properties) ? schema.properties : {};
  const required = schema.required.filter((name) => typeof name === "string" && Object.hasOwn(declared, name));
  const { required: _all, ...rest } = schema;
  return required.length > 0 ? { ...rest, required } : rest;
}

/**
 * A branch's `required` names that it does not declare but an enclosing node
 * does ("at least one of": `anyOf: [{ required: [phone] }, { required: [email] }]`
 * beside `properties: { phone, email }`): the enclosing declaration types
 * them, since under the node's `unevaluatedProperties: false` that is the
 * schema the value is checked against. Without it a closed branch would type
 * them as `never`.
 */
function withInherited(branch: JsonSchema, inherited: JsonObject): JsonSchema {
  if (typeof branch !== "object" || !Array.isArray(branch.required)) return branch;
  const declared = isJsonObject(branch.properties) ? branch.properties : {};
  const borrowed = branch.required.filter(
    (name): name is string => typeof name === "string" && !Object.hasOwn(declared, name) && Object.hasOwn(inherited, name),
  );
  if (borrowed.length === 0) return branch;
  return { ...branch, properties: { ...declared, ...Object.fromEntries(borrowed.map((name) => [name, inherited[name] as JsonSchema])) } };
}

/**
 * The type of a closed composition, or of one of its branches (a branch that
 * composes further is closed over its own branches too). `inherited` holds
 * the properties the enclosing nodes declare.
 */
export function closedCompositionType(schema: JsonSchema, ctx: TypeContext, render: RenderSchema, inherited: JsonObject = {}): TypeNode {
  if (typeof schema !== "object") return render(schema, ctx);
  const { allOf, anyOf, oneOf, unevaluatedProperties: _closed, ...own } = withInherited(schema, inherited) as JsonObject;
  if (allOf === undefined && anyOf === undefined && oneOf === undefined) return render(closedForTypes(withInherited(schema, inherited)), ctx);
  const parts: TypeNode[] = [];
  if (Object.keys(own).some((k) => !ANNOTATIONS.has(k))) parts.push(render(closedForTypes(ownRequired(own)), ctx));
  const enclosing: JsonObject = { ...inherited, ...(isJsonObject(own.properties) ? own.properties : {}) };
  const branchType = (branchCtx: TypeContext) => (branch: JsonSchema) => closedCompositionType(branch, branchCtx, render, enclosing);
  if (Array.isArray(allOf)) parts.push(...(allOf as JsonSchema[]).map(branchType(ctx)));
  // Ajv assigns no defaults inside anyOf/oneOf (see union.ts).
  const unionCtx: TypeContext = { ...ctx, inComposite: true };
  for (const union of [anyOf, oneOf]) if (Array.isArray(union)) parts.push(unionOf((union as JsonSchema[]).map(branchType(unionCtx))));
  return intersectionOf(parts);
}
