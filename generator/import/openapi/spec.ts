/**
 * Reads an API description (file or URL, JSON or YAML) with
 * @apidevtools/swagger-parser: `bundle` resolves every external `$ref` into
 * the one document, so every reference left is a local pointer, and
 * `validate` checks it against the OpenAPI schema of its version. A
 * validation failure is a warning, not a stop: real documents often break a
 * rule that does not matter to the import, and every node the import uses is
 * checked again where it is read.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { pointerJoin, type Reporter } from "../problems.js";
import { isJsonObject, type JsonObject } from "../schema.js";
import { fragmentTokens } from "../../schema/pointer.js";
import { readOpenApi3 } from "./openapi3.js";
import { readSwagger2 } from "./swagger2.js";
import type { ApiSpec, HttpMethod, Json, Operation, SecurityRequirements, SpecVersion } from "./model.js";

/** Validation messages listed before the rest are summarized: the first few say what kind of problem it is. */
const VALIDATION_LINES = 5;

function versionOf(doc: JsonObject): SpecVersion | undefined {
  if (doc.swagger === "2.0") return "2.0";
  if (typeof doc.openapi === "string" && /^3\.0\.\d+/.test(doc.openapi)) return "3.0";
  if (typeof doc.openapi === "string" && /^3\.1\.\d+/.test(doc.openapi)) return "3.1";
  return undefined;
}

async function validationProblems(doc: JsonObject, report: Reporter): Promise<void> {
  try {
    // validate dereferences in place; the import reads the bundled document, with its references.
    await SwaggerParser.validate(structuredClone(doc) as never);
  } catch (e) {
    const lines = (e instanceof Error ? e.message : String(e)).split("\n").map((l) => l.trim()).filter((l) => l !== "");
    const shown = lines.slice(0, VALIDATION_LINES + 1).join("; ");
    const more = lines.length > VALIDATION_LINES + 1 ? ` (and ${lines.length - VALIDATION_LINES - 1} more lines)` : "";
    report.warn("", `the document does not validate against its OpenAPI schema: ${shown}${more}; imported anyway, each node the import uses is checked where it is read`);
  }
}

/** A URL on this machine (localhost, 127.0.0.0/8, [::1]): the description of a server running here. */
function isLoopbackUrl(location: string): boolean {
  try {
    const host = new URL(location).hostname;
    return host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "[::1]";
  } catch {
    return false;
  }
}

/**
 * Reads and bundles `location` (a path or an http(s) URL); undefined after
 * reporting why not. The parser refuses references to internal addresses
 * (its `safeUrlResolver`), so a description from the network cannot make
 * toolc fetch from this machine or its network; a description the user
 * names on loopback (a server running here) may reference loopback too.
 */
export async function readSpec(location: string, report: Reporter): Promise<ApiSpec | undefined> {
  let bundled: unknown;
  try {
    bundled = await SwaggerParser.bundle(location, { resolve: { http: { safeUrlResolver: !isLoopbackUrl(location) } } });
  } catch (e) {
    report.error("", `cannot read the API description: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  if (!isJsonObject(bundled)) {
    report.error("", "the API description is not an object");
    return undefined;
  }
  const version = versionOf(bundled);
  if (version === undefined) {
    report.error("", `not a Swagger 2.0 or OpenAPI 3.0/3.1 document (swagger: ${JSON.stringify(bundled.swagger)}, openapi: ${JSON.stringify(bundled.openapi)})`);
    return undefined;
  }
  await validationProblems(bundled, report);
  return version === "2.0" ? readSwagger2(bundled, report) : readOpenApi3(bundled, version, report);
}

/** The node a local `$ref` (`#/components/...`) points at, or undefined. */
export function resolveLocal(doc: JsonObject, ref: string): Json | undefined {
  if (!ref.startsWith("#")) return undefined;
  let node: Json = doc;
  try {
    for (const token of fragmentTokens(ref.slice(1))) {
      if (Array.isArray(node)) node = node[Number(token)] as Json;
      else if (isJsonObject(node) && Object.hasOwn(node, token)) node = node[token] as Json;
      else return undefined;
      if (node === undefined) return undefined;
    }
  } catch {
    return undefined;
  }
  return node;
}

/**
 * Follows `$ref`s of non-schema objects (parameters, responses, request
 * bodies), returning the object and the pointer it was found at; chains are
 * followed, a cycle or a dangling reference is an error at `at`.
 */
export function followRef(doc: JsonObject, node: Json, at: string, report: Reporter): { node: JsonObject; pointer: string } | undefined {
  let current = node;
  let pointer = at;
  const seen = new Set<string>();
  while (isJsonObject(current) && typeof current.$ref === "string") {
    const ref = current.$ref;
    if (seen.has(ref)) {
      report.error(at, `the $ref chain ${[...seen, ref].map((r) => JSON.stringify(r)).join(" → ")} is a cycle`);
      return undefined;
    }
    seen.add(ref);
    const target = resolveLocal(doc, ref);
    if (target === undefined) {
      report.error(pointerJoin(pointer, "$ref"), `$ref ${JSON.stringify(ref)} points at nothing in the document`);
      return undefined;
    }
    current = target;
    pointer = ref.slice(1);
  }
  if (!isJsonObject(current)) {
    report.error(at, "expected an object");
    return undefined;
  }
  return { node: current, pointer };
}

/** The `x-…` keys of an object. */
export function extensionsOf(node: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(node).filter(([k]) => k.startsWith("x-")));
}

export function optionalText(value: Json | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

export function readSecurity(raw: Json | undefined): SecurityRequirements | undefined {
  if (!Array.isArray(raw)) return undefined;
  return raw.filter(isJsonObject).map((alternative) => Object.keys(alternative));
}

/** What an operation object says about itself, the same in Swagger 2.0 and OpenAPI 3.x. */
export function operationBasics(node: JsonObject, method: HttpMethod, path: string, at: string, globalSecurity: SecurityRequirements) {
  return {
    method,
    path,
    operationId: optionalText(node.operationId),
    summary: optionalText(node.summary),
    description: optionalText(node.description),
    tags: Array.isArray(node.tags) ? node.tags.filter((t): t is string => typeof t === "string") : [],
    deprecated: node.deprecated === true,
    security: readSecurity(node.security) ?? globalSecurity,
    extensions: extensionsOf(node),
    pointer: at,
  } satisfies Partial<Operation>;
}
