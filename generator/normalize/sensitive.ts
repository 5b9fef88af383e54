/**
 * Finds the properties marked `x-sensitive: true`, as path patterns the
 * runtime uses to scrub their values from every message and trace.
 */
import type { JsonObject, JsonSchema, PathPattern } from "../ir.js";
import { isSchemaObject } from "./schema-walk.js";

const MAX_DEPTH = 32;

export function sensitivePaths(root: JsonObject): PathPattern[] {
  const defs = isSchemaObject(root.$defs) ? root.$defs : {};
  const found = new Map<string, PathPattern>();
  const visit = (schema: JsonSchema | undefined, path: string[], seenRefs: ReadonlySet<string>): void => {
    if (!isSchemaObject(schema) || path.length > MAX_DEPTH) return;
    if (schema["x-sensitive"] === true) found.set(JSON.stringify(path), path);
    if (typeof schema.$ref === "string" && !seenRefs.has(schema.$ref)) {
      const name = schema.$ref.replace(/^#\/\$defs\//, "");
      visit(defs[name] as JsonSchema | undefined, path, new Set([...seenRefs, schema.$ref]));
    }
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      const list = schema[key];
      if (Array.isArray(list)) for (const branch of list) visit(branch as JsonSchema, path, seenRefs);
    }
    if (isSchemaObject(schema.properties)) {
      for (const [name, sub] of Object.entries(schema.properties)) visit(sub as JsonSchema, [...path, name], seenRefs);
    }
    if (isSchemaObject(schema.additionalProperties)) visit(schema.additionalProperties, [...path, "*"], seenRefs);
    visit(schema.items as JsonSchema | undefined, [...path, "*"], seenRefs);
    if (Array.isArray(schema.prefixItems)) for (const item of schema.prefixItems) visit(item as JsonSchema, [...path, "*"], seenRefs);
  };
  visit(root, [], new Set());
  return [...found.values()];
}
