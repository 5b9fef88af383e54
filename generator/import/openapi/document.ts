/**
 * What Swagger 2.0 and OpenAPI 3.x documents share, for both readers
 * (swagger2.ts, openapi3.ts): following the `$ref` of a non-schema object,
 * extensions, texts, security requirements and an operation's basics.
 */
import type { JsonObject } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import { resolveLocalRef } from "../../schema/refs.js";
import { pointerJoin, type Reporter } from "../problems.js";
import type { HttpMethod, Json, Operation, SecurityRequirements } from "./model.js";

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
    const target = resolveLocalRef(doc, ref);
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
