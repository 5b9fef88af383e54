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
import { allOfType } from "./allOf.js";
import { arrayType } from "./array.js";
import type { TypeContext } from "./context.js";
import { constType, enumType } from "./enum.js";
import { OBJECT_KEYWORDS, objectType } from "./object.js";
import { intersectionOf, keyword, unionOf, type TypeNode } from "../../printer/types/node.js";
import { declaredTypes, primitiveType, type TypeName } from "./primitive.js";
import { refType } from "./ref.js";
import { unionType } from "./union.js";
import { closedCompositionType, isClosedComposition } from "./unevaluated.js";

export type { TypeContext, RenderSchema } from "./context.js";
export type { TypeNode } from "../../printer/types/node.js";

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

/**
 * The TS type for a schema, as a node (node.ts) for layout.ts to print.
 * Boolean schemas (Core §4.3.2): `true` (like `{}`) accepts anything,
 * `unknown`; `false` accepts nothing, `never`.
 */
export function schemaToType(schema: JsonSchema, ctx: TypeContext): TypeNode {
  if (schema === true) return keyword("unknown");
  if (schema === false) return keyword("never");
  if (isClosedComposition(schema)) return closedCompositionType(schema, ctx, schemaToType);
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
