/**
 * Array schemas: `items` (JSON Schema 2020-12 Core §10.3.1.2) and
 * `prefixItems` (Core §10.3.1.1), with `minItems`/`maxItems` (Validation
 * §6.4.1–2) deciding which tuple elements are present.
 */
import type { JsonObject, JsonSchema } from "../../ir.js";
import type { RenderSchema, TypeContext } from "./context.js";
import { arrayOf, keyword, optionalElement, requiredElement, restElement, tupleOf, type TypeNode } from "../../printer/types/node.js";

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * A tuple for `prefixItems`. An array may be shorter than `prefixItems`, so
 * elements past `minItems` are optional (`T?`); `items` types the rest
 * (`...T[]`), which is left out when `items: false` or `maxItems` forbids it.
 * Ajv assigns no defaults to 2020-12 tuple elements, so both input views agree.
 */
function tupleType(prefix: readonly JsonSchema[], schema: JsonObject, ctx: TypeContext, render: RenderSchema): TypeNode {
  const min = count(schema.minItems) ?? 0;
  const max = count(schema.maxItems);
  const shown = max === undefined ? prefix : prefix.slice(0, max);
  const elements = shown.map((s, i) => (i < min ? requiredElement(render(s, ctx)) : optionalElement(render(s, ctx))));
  const items = schema.items;
  const restAllowed = items !== false && (max === undefined || max > prefix.length);
  if (restAllowed) elements.push(restElement(items === undefined ? keyword("unknown") : render(items as JsonSchema, ctx)));
  return tupleOf(elements);
}

/** The TS type of an array schema (its `type: "array"` part). `minItems` alone needs no tuple. */
export function arrayType(schema: JsonObject, ctx: TypeContext, render: RenderSchema): TypeNode {
  const prefix = schema.prefixItems;
  if (Array.isArray(prefix)) return tupleType(prefix as JsonSchema[], schema, ctx, render);
  const items = schema.items;
  if (items === false || count(schema.maxItems) === 0) return tupleOf([]);
  return arrayOf(items === undefined ? keyword("unknown") : render(items as JsonSchema, ctx));
}
