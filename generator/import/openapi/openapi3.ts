/**
 * OpenAPI 3.0 and 3.1 documents into the import's model (model.ts): path
 * items and operations, their parameters (path-level ones merged, an
 * operation's own winning, OpenAPI 3.1 §4.8.9.1), the request body, the
 * responses and the security requirements.
 */
import { pointerJoin, type Reporter } from "../problems.js";
import { followRef, operationBasics, optionalText, readSecurity } from "./document.js";
import {
  bodyEncoding,
  HTTP_METHODS,
  isJsonMediaType,
  type ApiSpec,
  type HttpParameter,
  type Json,
  type Operation,
  type ParameterLocation,
  type RequestBody,
  type ResponseSpec,
  type SecurityRequirements,
  type SecurityScheme,
  type SpecVersion,
} from "./model.js";
import { isJsonObject } from "../../schema/json.js";
import type { JsonObject } from "../../ir.js";

const LOCATIONS: readonly ParameterLocation[] = ["path", "query", "header", "cookie"];
/** OpenAPI: a style's default by location, and explode's default (true only for `form`). */
const DEFAULT_STYLE: Record<ParameterLocation, string> = { path: "simple", query: "form", header: "simple", cookie: "form" };

export function parameterStyle(location: ParameterLocation, node: JsonObject): { style: string; explode: boolean } {
  const style = typeof node.style === "string" ? node.style : DEFAULT_STYLE[location];
  const explode = typeof node.explode === "boolean" ? node.explode : style === "form";
  return { style, explode };
}

function readParameter(doc: JsonObject, raw: Json, at: string, report: Reporter): HttpParameter | undefined {
  const found = followRef(doc, raw, at, report);
  if (!found) return undefined;
  const { node, pointer } = found;
  const location = node.in as ParameterLocation;
  if (typeof node.name !== "string" || !LOCATIONS.includes(location)) {
    report.error(pointer, "a parameter needs a `name` and an `in` of path, query, header or cookie");
    return undefined;
  }
  let schema: Json | undefined = node.schema;
  if (schema === undefined && isJsonObject(node.content)) {
    // A parameter with `content` is serialized as that media type; toolc sends JSON text, the common case.
    const [mediaType, media] = Object.entries(node.content)[0] ?? [];
    schema = isJsonObject(media) ? media.schema : undefined;
    if (mediaType !== undefined && !isJsonMediaType(mediaType))
      report.warn(pointerJoin(pointer, "content"), `parameter content ${JSON.stringify(mediaType)} is sent as its JSON text`);
  }
  return {
    name: node.name,
    in: location,
    required: location === "path" || node.required === true,
    schema: schema ?? {},
    description: optionalText(node.description),
    ...parameterStyle(location, node),
    pointer,
  };
}

/** Path-level parameters, overridden by an operation's own with the same name and location. */
export function mergeParameters(pathLevel: readonly HttpParameter[], own: readonly HttpParameter[]): HttpParameter[] {
  const key = (p: HttpParameter) => `${p.in}\u0000${p.name}`;
  const ownKeys = new Set(own.map(key));
  return [...pathLevel.filter((p) => !ownKeys.has(key(p))), ...own];
}

function readParameters(doc: JsonObject, list: Json | undefined, at: string, report: Reporter): HttpParameter[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw, i) => readParameter(doc, raw, pointerJoin(at, i), report) ?? []);
}

/** JSON first, then a form (urlencoded, then multipart), then text or bytes; the others are named so the report can say what was left out. */
function chooseBody(doc: JsonObject, raw: Json | undefined, at: string, report: Reporter): { body: RequestBody | undefined; others: string[] } {
  if (raw === undefined) return { body: undefined, others: [] };
  const found = followRef(doc, raw, at, report);
  if (!found || !isJsonObject(found.node.content)) return { body: undefined, others: [] };
  const entries = Object.entries(found.node.content);
  const rank = (mediaType: string) => ["json", "form", "multipart", "text", "binary"].indexOf(bodyEncoding(mediaType) ?? "");
  const usable = entries.filter(([mt]) => rank(mt) >= 0).sort(([a], [b]) => rank(a) - rank(b));
  const chosen = usable[0];
  const others = entries.map(([mt]) => mt).filter((mt) => mt !== chosen?.[0]);
  if (!chosen) return { body: undefined, others };
  const [mediaType, media] = chosen;
  return {
    body: {
      mediaType,
      encoding: bodyEncoding(mediaType)!,
      schema: isJsonObject(media) && media.schema !== undefined ? media.schema : {},
      required: found.node.required === true,
      description: optionalText(found.node.description),
      pointer: pointerJoin(found.pointer, "content", mediaType, "schema"),
      ...(isJsonObject(media) && isJsonObject(media.encoding) ? { partTypes: partTypes(media.encoding) } : {}),
    },
    others,
  };
}

/** The Encoding Object's `contentType` per part; a list (`image/png, image/jpeg`) gives its first. */
function partTypes(encoding: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, entry] of Object.entries(encoding)) {
    const type = isJsonObject(entry) && typeof entry.contentType === "string" ? entry.contentType.split(",")[0]!.trim() : "";
    if (type !== "") out[name] = type;
  }
  return out;
}

function readResponses(doc: JsonObject, raw: Json | undefined, at: string, report: Reporter): ResponseSpec[] {
  if (!isJsonObject(raw)) return [];
  return Object.entries(raw).flatMap(([status, value]): ResponseSpec[] => {
    if (status.startsWith("x-")) return [];
    const found = followRef(doc, value, pointerJoin(at, status), report);
    if (!found) return [];
    const content = isJsonObject(found.node.content) ? Object.entries(found.node.content) : [];
    const [mediaType, media] = content.find(([mt]) => isJsonMediaType(mt)) ?? content[0] ?? [];
    return [
      {
        status,
        description: typeof found.node.description === "string" ? found.node.description : "",
        mediaType,
        schema: isJsonObject(media) ? media.schema : undefined,
        pointer: mediaType === undefined ? found.pointer : pointerJoin(found.pointer, "content", mediaType, "schema"),
      },
    ];
  });
}

function readScheme(node: JsonObject): SecurityScheme {
  if (node.type === "apiKey" && typeof node.name === "string" && (node.in === "header" || node.in === "query" || node.in === "cookie")) {
    return { type: "apiKey", in: node.in, name: node.name };
  }
  if (node.type === "http" && typeof node.scheme === "string") {
    const scheme = node.scheme.toLowerCase();
    if (scheme === "bearer") return { type: "bearer" };
    if (scheme === "basic") return { type: "basic" };
    return { type: "unsupported", why: `HTTP authentication scheme ${JSON.stringify(node.scheme)}` };
  }
  if (node.type === "oauth2" && isJsonObject(node.flows)) {
    const credentials = node.flows.clientCredentials;
    const tokenUrl = isJsonObject(credentials) && typeof credentials.tokenUrl === "string" ? credentials.tokenUrl : undefined;
    return { type: "oauth2", tokenUrl, clientCredentials: tokenUrl !== undefined };
  }
  if (node.type === "openIdConnect") return { type: "oauth2", tokenUrl: undefined, clientCredentials: false };
  return { type: "unsupported", why: `security scheme type ${JSON.stringify(node.type)}` };
}

function readSchemes(doc: JsonObject, report: Reporter): Record<string, SecurityScheme> {
  const components = isJsonObject(doc.components) ? doc.components : {};
  const schemes = isJsonObject(components.securitySchemes) ? components.securitySchemes : {};
  const out: Record<string, SecurityScheme> = {};
  for (const [name, raw] of Object.entries(schemes)) {
    const found = followRef(doc, raw, pointerJoin("/components/securitySchemes", name), report);
    if (found) out[name] = readScheme(found.node);
  }
  return out;
}

function readServers(doc: JsonObject): string[] {
  if (!Array.isArray(doc.servers)) return [];
  return doc.servers.filter(isJsonObject).flatMap((server) => {
    if (typeof server.url !== "string") return [];
    // Server variables take their defaults (OpenAPI 3.x Server Variable Object: `default` is required).
    const variables = isJsonObject(server.variables) ? server.variables : {};
    return [
      server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
        const variable = variables[name];
        return isJsonObject(variable) && typeof variable.default === "string" ? variable.default : whole;
      }),
    ];
  });
}

function readOperation(
  doc: JsonObject,
  path: string,
  method: (typeof HTTP_METHODS)[number],
  node: JsonObject,
  pathParameters: readonly HttpParameter[],
  at: string,
  globalSecurity: SecurityRequirements,
  report: Reporter,
): Operation {
  const { body, others } = chooseBody(doc, node.requestBody, pointerJoin(at, "requestBody"), report);
  return {
    ...operationBasics(node, method, path, at, globalSecurity),
    parameters: mergeParameters(pathParameters, readParameters(doc, node.parameters, pointerJoin(at, "parameters"), report)),
    body,
    otherBodies: others,
    responses: readResponses(doc, node.responses, pointerJoin(at, "responses"), report),
  };
}

export function readOpenApi3(doc: JsonObject, version: SpecVersion, report: Reporter): ApiSpec {
  const info = isJsonObject(doc.info) ? doc.info : {};
  const globalSecurity = readSecurity(doc.security) ?? [];
  const paths = isJsonObject(doc.paths) ? doc.paths : {};
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries(paths)) {
    const itemAt = pointerJoin("/paths", path);
    const item = followRef(doc, rawItem, itemAt, report);
    if (!item) continue;
    const pathParameters = readParameters(doc, item.node.parameters, pointerJoin(item.pointer, "parameters"), report);
    for (const method of HTTP_METHODS) {
      const node = item.node[method];
      if (isJsonObject(node))
        operations.push(readOperation(doc, path, method, node, pathParameters, pointerJoin(item.pointer, method), globalSecurity, report));
    }
  }
  return {
    version,
    title: typeof info.title === "string" ? info.title : "API",
    servers: readServers(doc),
    securitySchemes: readSchemes(doc, report),
    operations,
    document: doc,
  };
}
