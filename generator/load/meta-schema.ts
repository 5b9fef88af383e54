/**
 * Checks each definition file against toolc's own meta-schema
 * (schema/contract.schema.json, shipped with the package) and turns every
 * violation into a located diagnostic with a suggestion where one helps.
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, JsonPath } from "../ir.js";
import { describeError, formatPath, pointerSegments } from "../runtime/issues.js";
import { ASSERTIONS_OUTSIDE_SUBSET } from "../schema/walk.js";
import { didYouMean } from "./suggest.js";
import type { YamlSource } from "./yaml-source.js";

export const META_SCHEMA_URL = new URL("../../schema/contract.schema.json", import.meta.url);

/** JSON Schema keywords that exist but are outside toolc's subset: a clear "unsupported", not "unknown". */
const OUTSIDE_SUBSET = new Set<string>([
  ...ASSERTIONS_OUTSIDE_SUBSET,
  "$dynamicAnchor",
  "$anchor",
  "$id",
  "$vocabulary",
  "$recursiveAnchor",
  "contentSchema",
  "definitions",
  "additionalItems",
]);

const HINTS: Record<string, string> = {
  nullable: '; write `type: [X, "null"]` for a nullable value',
  definitions: "; use `$defs`",
  additionalItems: "; use `items` with `prefixItems`",
};

let compiled: ReturnType<Ajv2020["compile"]> | undefined;

function metaValidator(): ReturnType<Ajv2020["compile"]> {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false });
    addFormats.default(ajv, ["regex"]);
    compiled = ajv.compile(JSON.parse(readFileSync(META_SCHEMA_URL, "utf8")));
  }
  return compiled;
}

let iconCheck: ReturnType<Ajv2020["compile"]> | undefined;

/** Whether `value` is one icon as a contract's `icons` accepts it: the meta-schema's own definition decides. */
export function isContractIcon(value: unknown): boolean {
  if (!iconCheck) {
    const meta = JSON.parse(readFileSync(META_SCHEMA_URL, "utf8")) as { $defs: { icon: object } };
    iconCheck = new Ajv2020({ strict: false }).compile(meta.$defs.icon);
  }
  return iconCheck(value) === true;
}

function segmentsOf(e: ErrorObject, data: unknown): JsonPath {
  return pointerSegments(e.instancePath, data);
}

function unknownKey(file: YamlSource, e: ErrorObject): Diagnostic {
  const key = String(e.params.additionalProperty);
  const path = [...segmentsOf(e, file.data), key];
  const at = file.locate(path, { key: true });
  if (OUTSIDE_SUBSET.has(key)) {
    return error(at, Codes.unsupportedKeyword, `\`${key}\` is not in toolc's supported JSON Schema subset${HINTS[key] ?? ""}`);
  }
  const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  const value = (e.data as Record<string, unknown>)[key];
  if (value === null && /[\s,]/.test(key)) {
    return error(at, Codes.unknownKey, `unknown key \`${key}\`: a comma inside a { } mapping starts a new key; quote text that contains commas`);
  }
  const where = e.instancePath === "" ? "" : ` in \`${formatPath(segmentsOf(e, file.data))}\``;
  return error(at, Codes.unknownKey, `unknown key \`${key}\`${where}${HINTS[key] ?? didYouMean(key, allowed)}`);
}

function propertyName(file: YamlSource, e: ErrorObject): Diagnostic {
  const name = String(e.params.propertyName);
  const parent = segmentsOf(e, file.data);
  const at = file.locate([...parent, name], { key: true });
  const rule = parent[0] === "types" ? "a type name must be PascalCase (^[A-Z][A-Za-z0-9]*$)" : "an error code must be UPPER_SNAKE_CASE (^[A-Z][A-Z0-9_]*$)";
  return error(at, Codes.invalidValue, `\`${name}\`: ${rule}`);
}

/**
 * `required: true` on a property (the draft-03 and OpenAPI-2 habit): in JSON
 * Schema 2020-12 `required` is the object's list of names (Validation §6.5.3).
 */
function requiredFlag(file: YamlSource, path: JsonPath, e: ErrorObject): Diagnostic | undefined {
  if (e.keyword !== "type" || typeof e.data !== "boolean" || path.at(-1) !== "required" || path.at(-3) !== "properties") return undefined;
  const name = String(path.at(-2));
  const object = formatPath(path.slice(0, -3)) || "the object";
  const fix = e.data
    ? `list it in \`${object}\`'s \`required\` instead: \`required: [${name}]\` beside \`properties\``
    : "leave it out (properties are optional unless listed in their object's `required`)";
  return error(
    file.locate(path, { key: true }),
    Codes.invalidValue,
    `\`required: ${String(e.data)}\` on property \`${name}\` is not JSON Schema 2020-12; ${fix}`,
  );
}

function valueProblem(file: YamlSource, e: ErrorObject): Diagnostic {
  const path = segmentsOf(e, file.data);
  const flag = requiredFlag(file, path, e);
  if (flag !== undefined) return flag;
  const at = file.locate(path);
  const field = formatPath(path) || "the file";
  if (e.keyword === "required") {
    return error(at, Codes.missingField, `missing required field \`${String(e.params.missingProperty)}\`${path.length ? ` in \`${field}\`` : ""}`);
  }
  if (e.keyword === "pattern" && path.length === 1 && path[0] === "name") {
    return error(at, Codes.invalidToolName, `tool name ${JSON.stringify(e.data)} is not a valid MCP tool name: use 1 to 128 characters from A-Z a-z 0-9 _ . -`);
  }
  if (e.keyword === "enum") {
    const allowed = (e.params.allowedValues as unknown[]).map(String);
    const suggestion = typeof e.data === "string" ? didYouMean(e.data, allowed) : "";
    return error(at, Codes.invalidValue, `\`${field}\` must be one of ${allowed.join(", ")}${suggestion}`);
  }
  return error(at, Codes.invalidValue, `\`${field}\` ${describeError(e)}`);
}

/** Errors that only restate another error: the `if` wrapper and pattern failures inside propertyNames. */
function isNoise(e: ErrorObject): boolean {
  return e.keyword === "if" || (e.keyword === "pattern" && e.schemaPath.includes("/propertyNames/"));
}

export function checkAgainstMetaSchema(file: YamlSource): Diagnostic[] {
  if (file.data === null || typeof file.data !== "object" || Array.isArray(file.data)) {
    return [error(file.locate([]), Codes.invalidValue, "a definition must be a mapping with either tool fields (name, effect, input, …) or `types`")];
  }
  const validate = metaValidator();
  if (validate(file.data)) return [];
  return (validate.errors ?? [])
    .filter((e) => !isNoise(e))
    .map((e) => {
      if (e.keyword === "additionalProperties") return unknownKey(file, e);
      if (e.keyword === "propertyNames") return propertyName(file, e);
      return valueProblem(file, e);
    });
}
