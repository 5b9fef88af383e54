// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The typed client's tolerance for output it does not know: a property the
 * client's output schema does not declare, on an object that schema closes,
 * is dropped before the output is validated. That is what makes adding an
 * output property a compatible change: a client compiled from older
 * contracts keeps working against a newer server. The server stays strict
 * about what it sends; only the receiving side forgives.
 *
 * Objects under anyOf, oneOf or allOf are left as they are: which branch
 * declares a property is only known after validation, so there the client
 * cannot tell a new property from a wrong one (`toolc diff` warns about
 * properties added there).
 */
import type { JsonSchemaObject } from "./contract.js";

function isRecord(value: unknown): value is { [key: string]: unknown } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Follows `#/$defs/X` references to the root's definitions, at most `limit` times. */
function resolve(
  schema: unknown,
  root: JsonSchemaObject,
  limit: number,
): unknown {
  let node = schema;
  for (
    let hops = 0;
    hops < limit && isRecord(node) && typeof node["$ref"] === "string";
    hops++
  ) {
    const ref = node["$ref"];
    const defs = root["$defs"];
    if (!ref.startsWith("#/$defs/") || !isRecord(defs)) return undefined;
    const name = ref.slice("#/$defs/".length);
    node = Object.hasOwn(defs, name) ? defs[name] : undefined;
  }
  return node;
}

function dropIn(schema: unknown, value: unknown, root: JsonSchemaObject): void {
  const node = resolve(schema, root, 64);
  if (!isRecord(node) || "anyOf" in node || "oneOf" in node || "allOf" in node)
    return;
  if (Array.isArray(value)) {
    const prefix = Array.isArray(node["prefixItems"])
      ? node["prefixItems"]
      : [];
    value.forEach((item, i) =>
      dropIn(i < prefix.length ? prefix[i] : node["items"], item, root),
    );
    return;
  }
  if (!isRecord(value)) return;
  const properties = isRecord(node["properties"]) ? node["properties"] : {};
  const additional = node["additionalProperties"];
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(properties, key))
      dropIn(properties[key], value[key], root);
    else if (additional === false) delete value[key];
    else dropIn(additional, value[key], root);
  }
}

/** Removes, in place, every property `schema` does not declare on an object it closes. `value` must be the client's own copy. */
export function dropUnknownProperties(
  schema: JsonSchemaObject,
  value: unknown,
): void {
  dropIn(schema, value, schema);
}
