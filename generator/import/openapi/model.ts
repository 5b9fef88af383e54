import type { JsonObject } from "../../ir.js";
/**
 * One model of an HTTP API for the rest of the OpenAPI import, whatever the
 * source's version: Swagger 2.0 and OpenAPI 3.0/3.1 documents are read into
 * it by spec.ts and swagger2.ts. Schemas stay as the source wrote them
 * (with `$ref`s into the document); schemas.ts converts them per contract.
 */

type Json = JsonObject[string];

export type SpecVersion = "2.0" | "3.0" | "3.1";
export type HttpMethod = "get" | "put" | "post" | "delete" | "patch" | "head" | "options" | "trace";
export type ParameterLocation = "path" | "query" | "header" | "cookie";

export interface HttpParameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly schema: Json;
  readonly description: string | undefined;
  /** OpenAPI `style` (form, simple, deepObject, …) and `explode`, with the location's defaults filled in. */
  readonly style: string;
  readonly explode: boolean;
  /** JSON pointer of the parameter in the source document (after following a `$ref`). */
  readonly pointer: string;
}

/** How a request body is sent. */
export type BodyEncoding = "json" | "form" | "multipart" | "text" | "binary";

export interface RequestBody {
  readonly mediaType: string;
  readonly encoding: BodyEncoding;
  readonly schema: Json;
  readonly required: boolean;
  readonly description: string | undefined;
  readonly pointer: string;
  /** A multipart body's part media types by property (OpenAPI's Encoding Object `contentType`). */
  readonly partTypes?: Readonly<Record<string, string>>;
}

export interface ResponseSpec {
  /** `200`, `4XX`, `default`, … as written. */
  readonly status: string;
  readonly description: string;
  /** The media type of the content chosen (JSON first), if there is content. */
  readonly mediaType: string | undefined;
  readonly schema: Json | undefined;
  readonly pointer: string;
}

/** Alternatives, each a set of schemes that must all be applied (OpenAPI Security Requirement). */
export type SecurityRequirements = readonly (readonly string[])[];

export type SecurityScheme =
  | { readonly type: "apiKey"; readonly in: "header" | "query" | "cookie"; readonly name: string }
  | { readonly type: "bearer" }
  | { readonly type: "basic" }
  | { readonly type: "oauth2"; readonly tokenUrl: string | undefined; readonly clientCredentials: boolean }
  | { readonly type: "unsupported"; readonly why: string };

export interface Operation {
  readonly method: HttpMethod;
  readonly path: string;
  readonly operationId: string | undefined;
  readonly summary: string | undefined;
  readonly description: string | undefined;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly parameters: readonly HttpParameter[];
  readonly body: RequestBody | undefined;
  /** Request bodies of another kind than `body` offers (e.g. multipart), reported rather than served. */
  readonly otherBodies: readonly string[];
  readonly responses: readonly ResponseSpec[];
  readonly security: SecurityRequirements;
  /** The operation object's own `x-…` keys. */
  readonly extensions: JsonObject;
  readonly pointer: string;
}

export interface ApiSpec {
  readonly version: SpecVersion;
  readonly title: string;
  readonly servers: readonly string[];
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
  readonly operations: readonly Operation[];
  /** The whole (bundled) document: schema `$ref`s point into it. */
  readonly document: JsonObject;
}

export const HTTP_METHODS: readonly HttpMethod[] = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** A media type that carries JSON: `application/json`, `application/problem+json`, `application/vnd.github.v3+json`, … */
export function isJsonMediaType(mediaType: string): boolean {
  const essence = mediaType.split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || essence.endsWith("+json") || essence === "*/*" || essence === "application/*";
}

export function bodyEncoding(mediaType: string): BodyEncoding | undefined {
  const essence = mediaType.split(";")[0]!.trim().toLowerCase();
  if (isJsonMediaType(essence)) return "json";
  if (essence === "application/x-www-form-urlencoded") return "form";
  if (essence === "multipart/form-data") return "multipart";
  if (essence.startsWith("text/")) return "text";
  if (essence === "application/octet-stream") return "binary";
  return undefined;
}

export type { Json };
