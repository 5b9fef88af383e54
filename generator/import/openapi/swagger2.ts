/**
 * Swagger 2.0 documents into the import's model (model.ts). The differences
 * from OpenAPI 3 that matter here (Swagger 2.0 specification): a parameter
 * carries its schema keywords itself, `in: body` holds the JSON body and
 * `in: formData` parameters make up a form body; `consumes`/`produces` give
 * the media types; `host`, `basePath` and `schemes` give the server; schemas
 * live under `definitions`.
 */
import { pointerJoin, type Reporter } from "../problems.js";
import { mergeParameters } from "./openapi3.js";
import { followRef, operationBasics, optionalText, readSecurity } from "./document.js";
import {
  bodyEncoding,
  HTTP_METHODS,
  type ApiSpec,
  type HttpParameter,
  type Json,
  type Operation,
  type ParameterLocation,
  type RequestBody,
  type ResponseSpec,
  type SecurityRequirements,
  type SecurityScheme,
} from "./model.js";
import { isJsonObject } from "../../schema/json.js";
import type { JsonObject } from "../../ir.js";

/** The keywords a non-body Swagger 2.0 parameter shares with a schema (Swagger 2.0 Parameter Object). */
const PARAMETER_SCHEMA_KEYS = [
  "type",
  "format",
  "items",
  "default",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "enum",
  "multipleOf",
];

/** Swagger 2.0 `collectionFormat` as an OpenAPI 3 style: csv is the default, multi is an exploded form. */
function styleOf(location: ParameterLocation, node: JsonObject): { style: string; explode: boolean } {
  const format = typeof node.collectionFormat === "string" ? node.collectionFormat : "csv";
  if (format === "multi") return { style: "form", explode: true };
  if (format === "ssv") return { style: "spaceDelimited", explode: false };
  if (format === "pipes") return { style: "pipeDelimited", explode: false };
  return { style: location === "query" || location === "cookie" ? "form" : "simple", explode: false };
}

/** A parameter's own schema keywords as a schema; `items` of an array parameter is one too, recursively. */
function parameterSchema(node: JsonObject): JsonObject {
  const schema: JsonObject = {};
  for (const key of PARAMETER_SCHEMA_KEYS)
    if (node[key] !== undefined) schema[key] = key === "items" && isJsonObject(node.items) ? parameterSchema(node.items) : node[key]!;
  if (schema.type === "file") return { type: "string", format: "binary" };
  return schema;
}

interface RawParameters {
  readonly parameters: HttpParameter[];
  readonly body: { schema: Json; required: boolean; description: string | undefined; pointer: string } | undefined;
  readonly form: { name: string; schema: JsonObject; required: boolean; description: string | undefined }[];
}

function readParameters(doc: JsonObject, list: Json | undefined, at: string, report: Reporter): RawParameters {
  const out: RawParameters = { parameters: [], body: undefined, form: [] };
  if (!Array.isArray(list)) return out;
  list.forEach((raw, i) => {
    const found = followRef(doc, raw, pointerJoin(at, i), report);
    if (!found) return;
    const { node, pointer } = found;
    if (typeof node.name !== "string") return report.error(pointer, "a parameter needs a `name`");
    const description = optionalText(node.description);
    if (node.in === "body") {
      (out as { body: RawParameters["body"] }).body = {
        schema: node.schema ?? {},
        required: node.required === true,
        description,
        pointer: pointerJoin(pointer, "schema"),
      };
      return;
    }
    const schema = parameterSchema(node);
    if (node.in === "formData") {
      if (description !== undefined) schema.description = description;
      out.form.push({ name: node.name, schema, required: node.required === true, description });
      return;
    }
    const location = node.in as ParameterLocation;
    if (location !== "path" && location !== "query" && location !== "header")
      return report.error(pointer, `parameter location ${JSON.stringify(node.in)} is not one of path, query, header, body, formData`);
    out.parameters.push({
      name: node.name,
      in: location,
      required: location === "path" || node.required === true,
      schema,
      description,
      ...styleOf(location, node),
      pointer,
    });
  });
  return out;
}

function merged(pathLevel: RawParameters, own: RawParameters): RawParameters {
  const ownForm = new Set(own.form.map((f) => f.name));
  return {
    parameters: mergeParameters(pathLevel.parameters, own.parameters),
    body: own.body ?? pathLevel.body,
    form: [...pathLevel.form.filter((f) => !ownForm.has(f.name)), ...own.form],
  };
}

function mediaTypes(node: JsonObject, fallback: Json | undefined): string[] {
  const list = Array.isArray(node.consumes) ? node.consumes : Array.isArray(fallback) ? fallback : [];
  return list.filter((t): t is string => typeof t === "string");
}

function requestBody(raw: RawParameters, consumes: readonly string[], at: string): RequestBody | undefined {
  if (raw.body) {
    const mediaType = consumes.find((t) => bodyEncoding(t) === "json") ?? consumes[0] ?? "application/json";
    return { mediaType, encoding: bodyEncoding(mediaType) ?? "json", ...raw.body };
  }
  if (raw.form.length === 0) return undefined;
  // formData parameters are one object: its properties are the fields (Swagger 2.0: urlencoded unless consumes says multipart).
  const properties = Object.fromEntries(raw.form.map((f) => [f.name, f.schema]));
  const required = raw.form.filter((f) => f.required).map((f) => f.name);
  const schema: JsonObject = { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
  // A file field (`type: file`) is sent only in a multipart body.
  const file = raw.form.some((f) => isJsonObject(f.schema) && f.schema.format === "binary");
  const multipart = consumes.includes("multipart/form-data") && (file || !consumes.includes("application/x-www-form-urlencoded"));
  const mediaType = multipart ? "multipart/form-data" : "application/x-www-form-urlencoded";
  return {
    mediaType,
    encoding: multipart ? "multipart" : "form",
    schema,
    required: required.length > 0,
    description: undefined,
    pointer: pointerJoin(at, "parameters"),
  };
}

function readResponses(doc: JsonObject, raw: Json | undefined, produces: readonly string[], at: string, report: Reporter): ResponseSpec[] {
  if (!isJsonObject(raw)) return [];
  const mediaType = produces.find((t) => bodyEncoding(t) === "json") ?? produces[0] ?? "application/json";
  return Object.entries(raw).flatMap(([status, value]): ResponseSpec[] => {
    if (status.startsWith("x-")) return [];
    const found = followRef(doc, value, pointerJoin(at, status), report);
    if (!found) return [];
    const schema = found.node.schema;
    return [
      {
        status,
        description: typeof found.node.description === "string" ? found.node.description : "",
        mediaType: schema === undefined ? undefined : mediaType,
        schema,
        pointer: schema === undefined ? found.pointer : pointerJoin(found.pointer, "schema"),
      },
    ];
  });
}

function readScheme(node: JsonObject): SecurityScheme {
  if (node.type === "basic") return { type: "basic" };
  if (node.type === "apiKey" && typeof node.name === "string" && (node.in === "header" || node.in === "query"))
    return { type: "apiKey", in: node.in, name: node.name };
  if (node.type === "oauth2") {
    // Swagger 2.0's `application` flow is OAuth 2.0's client credentials grant.
    const tokenUrl = typeof node.tokenUrl === "string" ? node.tokenUrl : undefined;
    return { type: "oauth2", tokenUrl, clientCredentials: node.flow === "application" && tokenUrl !== undefined };
  }
  return { type: "unsupported", why: `security scheme type ${JSON.stringify(node.type)}` };
}

function serverOf(doc: JsonObject): string[] {
  if (typeof doc.host !== "string") return [];
  const schemes = Array.isArray(doc.schemes) ? doc.schemes.filter((s): s is string => typeof s === "string") : [];
  const scheme = schemes.includes("https") ? "https" : (schemes[0] ?? "https");
  const basePath = typeof doc.basePath === "string" ? doc.basePath : "";
  return [`${scheme}://${doc.host}${basePath === "/" ? "" : basePath}`];
}

export function readSwagger2(doc: JsonObject, report: Reporter): ApiSpec {
  const info = isJsonObject(doc.info) ? doc.info : {};
  const globalSecurity: SecurityRequirements = readSecurity(doc.security) ?? [];
  const definitions = isJsonObject(doc.securityDefinitions) ? doc.securityDefinitions : {};
  const securitySchemes = Object.fromEntries(
    Object.entries(definitions)
      .filter(([, v]) => isJsonObject(v))
      .map(([k, v]) => [k, readScheme(v as JsonObject)]),
  );
  const operations: Operation[] = [];
  const paths = isJsonObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = followRef(doc, rawItem, pointerJoin("/paths", path), report);
    if (!item) continue;
    const pathLevel = readParameters(doc, item.node.parameters, pointerJoin(item.pointer, "parameters"), report);
    for (const method of HTTP_METHODS) {
      const node = item.node[method];
      if (!isJsonObject(node)) continue;
      const at = pointerJoin(item.pointer, method);
      const raw = merged(pathLevel, readParameters(doc, node.parameters, pointerJoin(at, "parameters"), report));
      const consumes = mediaTypes(node, doc.consumes);
      const body = requestBody(raw, consumes, at);
      const produces = Array.isArray(node.produces) ? node.produces : Array.isArray(doc.produces) ? doc.produces : [];
      operations.push({
        ...operationBasics(node, method, path, at, globalSecurity),
        parameters: raw.parameters,
        body,
        otherBodies: [],
        responses: readResponses(
          doc,
          node.responses,
          produces.filter((t): t is string => typeof t === "string"),
          pointerJoin(at, "responses"),
          report,
        ),
      });
    }
  }
  return { version: "2.0", title: typeof info.title === "string" ? info.title : "API", servers: serverOf(doc), securitySchemes, operations, document: doc };
}
