/**
 * A `multipart/form-data` request body's file parts. A file is a string of
 * bytes in the description (`format: binary` in OpenAPI 3.0 and Swagger 2.0's
 * `type: file`, `contentMediaType` without `contentEncoding` in 3.1); a model
 * can only give text, so the input property takes the bytes base64-encoded
 * and says so (`contentEncoding: base64`, `contentMediaType`), and the
 * handler decodes them into the part (openapi-http.ts `multipartBody`).
 */
import type { JsonObject } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import type { Json, RequestBody } from "./model.js";
import type { SchemaConverter } from "./schemas.js";

/** Base64 text (RFC 4648 §4, padded or not): anything else is INVALID_INPUT before a request is sent. */
export const BASE64_PATTERN = "^[A-Za-z0-9+/]*={0,2}$";
const DEFAULT_PART_TYPE = "application/octet-stream";

function isFile(schema: Json): boolean {
  if (!isJsonObject(schema) || (schema.type !== undefined && schema.type !== "string")) return false;
  return schema.format === "binary" || (typeof schema.contentMediaType === "string" && schema.contentEncoding === undefined);
}

/** What the source says a property is: one file, a list of files, or neither. */
function fileKind(converter: SchemaConverter, source: Json): { list: boolean; mediaType: string | undefined } | undefined {
  const schema = converter.resolve(source);
  if (isFile(schema)) return { list: false, mediaType: mediaTypeOf(schema) };
  if (!isJsonObject(schema) || schema.type !== "array") return undefined;
  const items = converter.resolve(schema.items as Json);
  return isFile(items) ? { list: true, mediaType: mediaTypeOf(items) } : undefined;
}

function mediaTypeOf(schema: Json): string | undefined {
  return isJsonObject(schema) && typeof schema.contentMediaType === "string" ? schema.contentMediaType : undefined;
}

/** The input schema of one file: base64 text, with the converted schema's description kept. */
function fileInput(converted: Json, mediaType: string): JsonObject {
  const said = isJsonObject(converted) && typeof converted.description === "string" ? `${converted.description.trimEnd()} ` : "";
  return {
    type: "string",
    contentEncoding: "base64",
    contentMediaType: mediaType,
    pattern: BASE64_PATTERN,
    description: `${said}The file's bytes, base64-encoded (${mediaType}).`,
  };
}

/** The body's source properties (the schema it declares, `$ref` followed). */
function sourceProperties(converter: SchemaConverter, body: RequestBody): JsonObject {
  const resolved = converter.resolve(body.schema);
  return isJsonObject(resolved) && isJsonObject(resolved.properties) ? resolved.properties : {};
}

/** Whether the body declares a file part: such a body is sent only when its properties are input properties (flattened). */
export function hasFileParts(converter: SchemaConverter, body: RequestBody): boolean {
  return Object.values(sourceProperties(converter, body)).some((p) => fileKind(converter, p) !== undefined);
}

/**
 * Rewrites the flattened file properties in `properties` as base64 inputs and
 * returns each file part's media type by property, for the binding (the
 * Encoding Object's `contentType` first, then the schema's own
 * `contentMediaType`, else application/octet-stream).
 */
export function fileParts(converter: SchemaConverter, body: RequestBody, keys: readonly string[], properties: JsonObject): Record<string, string> {
  const source = sourceProperties(converter, body);
  const files: Record<string, string> = {};
  for (const key of keys) {
    const kind = Object.hasOwn(source, key) ? fileKind(converter, source[key]!) : undefined;
    if (kind === undefined) continue;
    const mediaType = body.partTypes?.[key] ?? kind.mediaType ?? DEFAULT_PART_TYPE;
    const converted = properties[key]!;
    if (!kind.list) properties[key] = fileInput(converted, mediaType);
    else {
      const list = isJsonObject(converted) ? converted : {};
      properties[key] = { ...list, type: "array", items: fileInput(list.items as Json, mediaType) };
    }
    files[key] = mediaType;
  }
  return files;
}
