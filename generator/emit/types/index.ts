/**
 * Schema → TS type node. Each keyword family has its own transform; this
 * module decides which apply to a schema node and combines them.
 *
 * In JSON Schema 2020-12 every keyword of a schema object applies to the
 * instance independently (Core §7.1), so the node's type is the
 * intersection of what its keywords say: e.g. `{type: object, properties,
 * oneOf}` is `{...} & (A | B)`. Keywords that only assert (`pattern`,
 * bounds, `format`, `uniqueItems`, `propertyNames`) leave the type as is;
 * the validator enforces them.
 */
import type { JsonObject, JsonSchema, JsonValue } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import { allOfType } from "./allOf.js";
import { arrayType } from "./array.js";
import type { TypeContext } from "./context.js";
import { constType, enumType } from "./enum.js";
import { objectType } from "./object.js";
import { intersectionOf, keyword, unionOf, type TypeNode } from "./node.js";
import { declaredTypes, primitiveType, type TypeName } from "./primitive.js";
import { refType } from "./ref.js";
import { unionType } from "./union.js";

export type { TypeContext, RenderSchema } from "./context.js";
export type { TypeNode } from "./node.js";

const OBJECT_KEYWORDS = ["properties", "required", "additionalProperties", "propertyNames"];
const ARRAY_KEYWORDS = ["items", "prefixItems"];

/** The type for one `type` name, using the node's structural keywords for objects and arrays. */
function typeForName(name: TypeName, schema: JsonObject, ctx: TypeContext): TypeNode {
  if (name === "object") return objectType(schema, ctx, schemaToType);
  if (name === "array") return arrayType(schema, ctx, schemaToType);
  return primitiveType(name);
}

/**
 * What `const`/`enum`/`type` say. Without `type`, structural keywords imply
 * it: Ajv's strictTypes (on in toolc) only accepts them where the type is
 * object (or array) anyway, here or in the parent schema.
 */
function valueType(schema: JsonObject, ctx: TypeContext): TypeNode | undefined {
  const types = declaredTypes(schema);
  if (schema.const !== undefined) return constType(schema.const, types);
  if (Array.isArray(schema.enum)) return enumType(schema.enum as JsonValue[], types);
  if (types.length > 0) return unionOf(types.map((t) => typeForName(t, schema, ctx)));
  if (OBJECT_KEYWORDS.some((k) => k in schema)) return objectType(schema, ctx, schemaToType);
  if (ARRAY_KEYWORDS.some((k) => k in schema)) return arrayType(schema, ctx, schemaToType);
  return undefined;
}

function branches(schema: JsonObject, name: string): JsonSchema[] | undefined {
  const value = schema[name];
  return Array.isArray(value) ? (value as JsonSchema[]) : undefined;
}

const ANNOTATIONS = new Set(["type", "title", "description", "default", "deprecated", "examples", "$comment", "$schema", "readOnly", "writeOnly"]);

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
  const borrowed = branch.required.filter((name): name is string => typeof name === "string" && !Object.hasOwn(declared, name) && Object.hasOwn(inherited, name));
  if (borrowed.length === 0) return branch;
  return { ...branch, properties: { ...declared, ...Object.fromEntries(borrowed.map((name) => [name, inherited[name] as JsonSchema])) } };
}

/**
 * A schema under an `unevaluatedProperties: false` that normalize wrote
 * (Core §11.3) on an object holding `allOf`, `anyOf` or `oneOf`: the
 * branches are open only so they can be composed, so each is typed as
 * closed, and the whole is the node's own shape (if it declares any) and its
 * branches: an intersection for allOf, a union for anyOf and oneOf.
 * `inherited` holds the properties the enclosing nodes declare.
 */
function closedType(schema: JsonSchema, ctx: TypeContext, inherited: JsonObject = {}): TypeNode {
  if (typeof schema !== "object") return schemaToType(schema, ctx);
  const { allOf, anyOf, oneOf, unevaluatedProperties: _closed, ...own } = withInherited(schema, inherited) as JsonObject;
  if (allOf === undefined && anyOf === undefined && oneOf === undefined) return schemaToType(closedForTypes(withInherited(schema, inherited)), ctx);
  const parts: TypeNode[] = [];
  if (Object.keys(own).some((k) => !ANNOTATIONS.has(k))) parts.push(schemaToType(closedForTypes(ownRequired(own)), ctx));
  const enclosing: JsonObject = { ...inherited, ...(isJsonObject(own.properties) ? own.properties : {}) };
  if (Array.isArray(allOf)) parts.push(...(allOf as JsonSchema[]).map((branch) => closedType(branch, ctx, enclosing)));
  const branchCtx: TypeContext = { ...ctx, inComposite: true };
  for (const union of [anyOf, oneOf]) if (Array.isArray(union)) parts.push(unionOf((union as JsonSchema[]).map((branch) => closedType(branch, branchCtx, enclosing))));
  return intersectionOf(parts);
}

const COMPOSITIONS = ["allOf", "anyOf", "oneOf"];

/**
 * The TS type for a schema, as a node (node.ts) for layout.ts to print.
 * Boolean schemas (Core §4.3.2): `true` (like `{}`) accepts anything,
 * `unknown`; `false` accepts nothing, `never`.
 */
export function schemaToType(schema: JsonSchema, ctx: TypeContext): TypeNode {
  if (schema === true) return keyword("unknown");
  if (schema === false) return keyword("never");
  if (schema.unevaluatedProperties === false && COMPOSITIONS.some((k) => Array.isArray(schema[k]))) return closedType(schema, ctx);
  const parts: TypeNode[] = [];
  const value = valueType(schema, ctx);
  if (value !== undefined) parts.push(value);
  if (typeof schema.$ref === "string") parts.push(refType(schema.$ref, ctx));
  const anyOf = branches(schema, "anyOf");
  if (anyOf) parts.push(unionType(anyOf, ctx, schemaToType));
  const oneOf = branches(schema, "oneOf");
  if (oneOf) parts.push(unionType(oneOf, ctx, schemaToType));
  const allOf = branches(schema, "allOf");
  if (allOf) parts.push(allOfType(allOf, ctx, schemaToType));
  return intersectionOf(parts);
}
