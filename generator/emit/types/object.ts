/**
 * Object schemas: `properties` (JSON Schema 2020-12 Core §10.3.2.1),
 * `additionalProperties` (Core §10.3.2.3) and `required` (Validation §6.5.3).
 *
 * A TS object type is always open to extra properties structurally, so a
 * closed object (`additionalProperties: false`, toolc's default) is simply the
 * declared members; an open one adds an index signature.
 */
import type { JsonObject, JsonSchema } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import type { RenderSchema, TypeContext } from "./context.js";
import { schemaDocLines } from "./jsdoc.js";
import { emptyObject, indexSignature, keyword, objectOf, property, unionOf, type ObjectMember, type TypeNode } from "../../printer/types/node.js";

/** The keywords that make a schema without `type` an object schema (Ajv's strictTypes allows them only there). */
export const OBJECT_KEYWORDS = ["properties", "required", "additionalProperties", "propertyNames"];

/** The schema's `properties` entries, in the schema's own order. */
function propertyEntries(schema: JsonObject): [string, JsonSchema][] {
  const props = schema.properties;
  if (props === undefined) return [];
  if (!isJsonObject(props)) throw new Error("properties must be an object");
  return Object.entries(props) as [string, JsonSchema][];
}

function requiredSet(schema: JsonObject): Set<string> {
  const req = schema.required;
  return new Set(Array.isArray(req) ? req.filter((r): r is string => typeof r === "string") : []);
}

/** Whether a property schema carries a `default` that Ajv's `useDefaults` would assign. */
function hasDefault(schema: JsonSchema): boolean {
  return typeof schema === "object" && schema.default !== undefined;
}

/**
 * Whether a property may be absent. `required` wins; otherwise, in a resolved
 * input outside `anyOf`/`oneOf`, a property with a default has been filled in.
 */
export function isOptional(key: string, schema: JsonSchema, required: Set<string>, ctx: TypeContext): boolean {
  if (required.has(key)) return false;
  return !(ctx.resolved && !ctx.inComposite && hasDefault(schema));
}

/**
 * The value type of the index signature, or `undefined` for none.
 * `additionalProperties: <schema>` must also admit the declared members'
 * types, because TS checks every property against the index signature.
 */
function indexSignatureType(schema: JsonObject, memberTypes: readonly TypeNode[], ctx: TypeContext, render: RenderSchema): TypeNode | undefined {
  const extra = schema.additionalProperties;
  if (extra === false) return undefined;
  if (extra === undefined || extra === true) return keyword("unknown");
  return unionOf([render(extra as JsonSchema, ctx), ...memberTypes]);
}

/** The type of a key listed in `required` but not in `properties`: whatever `additionalProperties` allows. */
function undeclaredRequiredType(schema: JsonObject, ctx: TypeContext, render: RenderSchema): TypeNode {
  const extra = schema.additionalProperties;
  if (extra === false) return keyword("never");
  if (extra === undefined || extra === true) return keyword("unknown");
  return render(extra as JsonSchema, ctx);
}

/** The TS type of an object schema (its `type: "object"` part). */
export function objectType(schema: JsonObject, ctx: TypeContext, render: RenderSchema): TypeNode {
  const required = requiredSet(schema);
  const members: ObjectMember[] = [];
  const memberTypes: TypeNode[] = [];
  const entries = propertyEntries(schema);
  for (const [key, sub] of entries) {
    const type = render(sub, ctx);
    const optional = isOptional(key, sub, required, ctx);
    members.push(property(key, type, { optional, docs: schemaDocLines(sub) }));
    memberTypes.push(optional ? unionOf([type, keyword("undefined")]) : type);
  }
  const declared = new Set(entries.map(([k]) => k));
  for (const key of required) {
    if (declared.has(key)) continue;
    const type = undeclaredRequiredType(schema, ctx, render);
    members.push(property(key, type));
    memberTypes.push(type);
  }
  const index = indexSignatureType(schema, memberTypes, ctx, render);
  if (index !== undefined) members.push(indexSignature(index));
  return members.length === 0 ? emptyObject() : objectOf(members);
}
