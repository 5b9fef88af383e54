// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * An output whose schema root is not `type: object` (an array, a string, a
 * number, a union, a `$ref`), as the 2025-era protocol carries it. MCP
 * 2026-07-28 (SEP-2106) lets `outputSchema` be any JSON Schema 2020-12 root
 * and `structuredContent` any JSON value; 2025-11-25 and earlier require both
 * to be objects. To a 2025-era client such a tool is therefore served
 * wrapped: its output schema as
 * `{ type: "object", properties: { result: <schema> }, required: ["result"] }`
 * and its value as `{ result: <value> }`. That is the projection the MCP
 * TypeScript SDK 2.x applies to 2025-era peers; the SDK 1.x port, which
 * speaks only the 2025 era, applies this module's copy of it, so both lines
 * put the same bytes on the wire. The typed client takes the value back out.
 */
import type { JsonSchemaObject } from "./contract.js";

/** The one property of the 2025-era wrapper. */
export const LEGACY_RESULT_KEY = "result";

/**
 * Whether an output schema is served as it is to a 2025-era client: only a
 * root that states `type: "object"`. A `$ref` or union root is wrapped even
 * when every branch is an object, as the SDK 2.x does.
 */
export function hasObjectRoot(schema: JsonSchemaObject): boolean {
  return schema["type"] === "object";
}

/** Keywords whose value is instance data, never a subschema: a `$ref` inside one is data. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set([
  "const",
  "enum",
  "default",
  "examples",
]);
/** Keywords whose value maps names (which may spell keywords) to subschemas: the SDK's list, beyond the contract subset's `properties` and `$defs`. */
const NAME_MAPS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

/** A same-document pointer, moved under the wrapper's `result` property. */
function rebasedRef(ref: string): string {
  if (ref === "#") return `#/properties/${LEGACY_RESULT_KEY}`;
  return ref.startsWith("#/")
    ? `#/properties/${LEGACY_RESULT_KEY}${ref.slice(1)}`
    : ref;
}

function setOwn(
  target: { [key: string]: unknown },
  key: string,
  value: unknown,
): void {
  // defineProperty: a property may legally be named "__proto__".
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * The schema with every same-document `$ref` rebased, key order kept. The
 * contract subset has no `$id`, `$dynamicRef` or `$recursiveRef`, so a `$ref`
 * is the only pointer there is to move.
 */
function rebase(node: unknown, inNameMap: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => rebase(item, false));
  if (node === null || typeof node !== "object") return node;
  const out: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(
    node as { [key: string]: unknown },
  )) {
    if (inNameMap) setOwn(out, key, rebase(value, false));
    else if (key === "$ref" && typeof value === "string")
      setOwn(out, key, rebasedRef(value));
    else if (DATA_KEYWORDS.has(key)) setOwn(out, key, value);
    else setOwn(out, key, rebase(value, NAME_MAPS.has(key)));
  }
  return out;
}

/** The output schema a 2025-era client is served: the schema itself for an object root, else the wrapper (carrying `$schema` first when the schema states one). */
export function legacyOutputSchema(schema: JsonSchemaObject): JsonSchemaObject {
  if (hasObjectRoot(schema)) return schema;
  const dialect =
    typeof schema["$schema"] === "string" ? { $schema: schema["$schema"] } : {};
  return {
    ...dialect,
    type: "object",
    properties: { [LEGACY_RESULT_KEY]: rebase(schema, false) },
    required: [LEGACY_RESULT_KEY],
  };
}

const isRecord = (
  value: unknown,
): value is { readonly [key: string]: unknown } =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A tools/call result as a 2025-era client gets it: `structuredContent`
 * wrapped when the output schema is served wrapped, or when the value is
 * not an object. Results without `structuredContent` (failures) are as they are.
 */
export function legacyCallResult<
  R extends { readonly structuredContent?: unknown },
>(result: R, outputSchema: JsonSchemaObject): R {
  const value = result.structuredContent;
  if (value === undefined) return result;
  if (isRecord(value) && hasObjectRoot(outputSchema)) return result;
  return { ...result, structuredContent: { [LEGACY_RESULT_KEY]: value } };
}

/** The value a 2025-era server sent for a tool with this output schema: unwrapped when the schema is served wrapped; undefined when the wrapper is not there. */
export function naturalOutput(
  structuredContent: unknown,
  outputSchema: JsonSchemaObject,
): { readonly value: unknown } | undefined {
  if (hasObjectRoot(outputSchema)) return { value: structuredContent };
  if (
    !isRecord(structuredContent) ||
    !Object.hasOwn(structuredContent, LEGACY_RESULT_KEY)
  )
    return undefined;
  return { value: structuredContent[LEGACY_RESULT_KEY] };
}
