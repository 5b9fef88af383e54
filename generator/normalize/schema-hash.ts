/**
 * The schema hash a tool carries in its tools/list `_meta`: SHA-256 of its
 * normalized input and output schemas, with annotations left out and keys in
 * sorted order, so it changes when what the tool accepts or returns changes
 * and not when its docs or the YAML's layout do. A typed client compares it
 * with the hash it was compiled with to find drift before the first call
 * (the key is the runtime's SCHEMA_HASH_META_KEY, runtime/contract.ts).
 */
import { createHash } from "node:crypto";
import type { JsonObject, JsonSchema, JsonValue } from "../ir.js";
import { mapSchema } from "../schema/walk.js";
import { annotationKeywords } from "../schema/annotations.js";

/** Keywords that only describe; an edit to them is not drift (a `default`, `readOnly` or `writeOnly` edit is). */
const ANNOTATIONS = annotationKeywords("meta-data");

function withoutAnnotations(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, [], (node) => Object.fromEntries(Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key))) as JsonObject);
}

/** JSON with object keys sorted at every level: one text per value. */
function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as JsonValue)}`).join(",")}}`;
}

export function schemaHash(input: JsonObject, output: JsonObject): string {
  const text = canonicalJson({ input: withoutAnnotations(input), output: withoutAnnotations(output) } as JsonObject);
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}
