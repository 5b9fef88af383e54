/**
 * `x-mcp-header` (MCP 2026-07-28, SEP-2243): an input property whose value
 * Streamable HTTP clients mirror into the header `Mcp-Param-{name}`. The
 * revision's tools page makes a tool with a broken declaration invalid, and
 * clients drop such a tool from tools/list, so every rule it states is a
 * located error here:
 *
 * - the value is an RFC 9110 token (`1*tchar`: not empty, no space, control
 *   character or delimiter) (TC080);
 * - it sits on a property reached from the input root through `properties`
 *   alone: not on the root, under `items`, a composition (`oneOf`, `anyOf`,
 *   `allOf`, `not`), a condition, `$defs` or a `$ref`, and never in an output
 *   or a named type (TC081);
 * - the property's `type` is exactly `string`, `integer` or `boolean` (TC082);
 * - names are unique within the tool, ignoring case (TC083).
 *
 * The page also says sensitive values SHOULD NOT go into headers, which any
 * intermediary can read; toolc promises that `x-sensitive` values appear
 * nowhere, so the two together are an error (TC084). An integer outside
 * ±(2^53−1) cannot be mirrored; one whose schema allows such values gets a
 * warning (TC085).
 */
import { Codes, error, warning } from "../diagnostics.js";
import type { Diagnostic, JsonObject, JsonValue, McpHeaderIR } from "../ir.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import { isJsonObject } from "../schema/json.js";
import { ANY_SCHEMA_KEYWORDS, ANY_SCHEMA_LIST_KEYWORDS, ANY_SCHEMA_MAP_KEYWORDS } from "../schema/walk.js";

const KEY = "x-mcp-header";
/** RFC 9110 §5.6.2 `token`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES: ReadonlySet<string> = new Set(["string", "integer", "boolean"]);
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Subschema keywords the statically reachable chain may not pass through. */
const UNREACHABLE_ONE = ANY_SCHEMA_KEYWORDS;
const UNREACHABLE_LIST = ANY_SCHEMA_LIST_KEYWORDS;
/** `properties` continues the chain; every other map breaks it. */
const UNREACHABLE_MAP = ANY_SCHEMA_MAP_KEYWORDS.filter((key) => key !== "properties");

interface Found {
  readonly node: JsonObject;
  /** The YAML path of the schema node that carries the keyword. */
  readonly at: JsonPath;
  /** The `properties` chain from the input root; undefined where the chain is broken. */
  readonly chain: readonly string[] | undefined;
}

/** Every schema node carrying `x-mcp-header`, with the `properties` chain that reaches it where one does. */
function findDeclarations(schema: JsonValue | undefined, at: JsonPath, chain: readonly string[] | undefined, found: Found[]): void {
  if (!isJsonObject(schema)) return;
  if (Object.hasOwn(schema, KEY)) found.push({ node: schema, at, chain });
  if (isJsonObject(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties))
      findDeclarations(sub, [...at, "properties", name], chain === undefined ? undefined : [...chain, name], found);
  }
  for (const key of UNREACHABLE_ONE) findDeclarations(schema[key], [...at, key], undefined, found);
  for (const key of UNREACHABLE_LIST) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((sub, i) => findDeclarations(sub, [...at, key, i], undefined, found));
  }
  for (const key of UNREACHABLE_MAP) {
    const map = schema[key];
    if (isJsonObject(map)) for (const [name, sub] of Object.entries(map)) findDeclarations(sub, [...at, key, name], undefined, found);
  }
}

/** Where a declaration may not be, in words; undefined when it is on a reachable input property. */
function placementProblem(found: Found, where: "input" | "output" | "type"): string | undefined {
  if (where === "output") return "`x-mcp-header` belongs on input properties; an output has no request headers";
  if (where === "type")
    return "`x-mcp-header` may not be in a named type: clients reach a property only through `properties` from the input root, never through `$ref`; declare it on the tool's own input property";
  if (found.chain === undefined)
    return "`x-mcp-header` must be on a property reached from the input root through `properties` alone (not under items, additionalProperties, oneOf/anyOf/allOf/not, if/then/else or $defs)";
  if (found.chain.length === 0) return "`x-mcp-header` must be on an input property, not on the input root";
  if (typeof found.node.$ref === "string")
    return "`x-mcp-header` may not sit beside `$ref`: the chain to the property may not pass through a reference; write the property's type inline";
  return undefined;
}

function isBoundedSafely(node: JsonObject): boolean {
  const low = typeof node.minimum === "number" ? node.minimum : typeof node.exclusiveMinimum === "number" ? node.exclusiveMinimum : undefined;
  const high = typeof node.maximum === "number" ? node.maximum : typeof node.exclusiveMaximum === "number" ? node.exclusiveMaximum : undefined;
  return low !== undefined && high !== undefined && low >= -MAX_SAFE && high <= MAX_SAFE;
}

/** The declaration, or the diagnostics that make it invalid. */
function checkDeclaration(found: Found, file: YamlSource, out: Diagnostic[]): McpHeaderIR | undefined {
  const name = found.node[KEY];
  const valueAt = file.locate([...found.at, KEY]);
  if (typeof name !== "string") return undefined; // the meta-schema reports a value that is not a string
  if (!TOKEN.test(name)) {
    out.push(
      error(
        valueAt,
        Codes.mcpHeaderName,
        `\`x-mcp-header\` ${JSON.stringify(name)} is not an HTTP header-name token (RFC 9110: letters, digits and !#$%&'*+-.^_\`|~, at least one): it names the header Mcp-Param-{name}`,
      ),
    );
    return undefined;
  }
  const type = found.node.type;
  if (typeof type !== "string" || !HEADER_TYPES.has(type)) {
    const got = type === undefined ? "no `type`" : `\`type: ${JSON.stringify(type)}\``;
    out.push(
      error(
        file.locate([...found.at, KEY], { key: true }),
        Codes.mcpHeaderType,
        `\`x-mcp-header\` needs a property of \`type: string\`, \`integer\` or \`boolean\` (a single type; \`number\` is not allowed), and this one has ${got}`,
      ),
    );
    return undefined;
  }
  if (found.node["x-sensitive"] === true) {
    out.push(
      error(
        file.locate([...found.at, KEY], { key: true }),
        Codes.sensitiveMcpHeader,
        "`x-mcp-header` on an `x-sensitive` property would put a secret in an HTTP header, which every proxy and log on the way can read; drop one of the two",
      ),
    );
    return undefined;
  }
  if (type === "integer" && !isBoundedSafely(found.node)) {
    out.push(
      warning(
        file.locate([...found.at, KEY], { key: true }),
        Codes.mcpHeaderUnsafeInteger,
        "an integer `x-mcp-header` property should bound its values to ±9007199254740991 with `minimum` and `maximum`: a client cannot mirror a larger integer into the header exactly",
      ),
    );
  }
  return { name, path: found.chain ?? [], type: type as McpHeaderIR["type"] };
}

/** The tool's declarations from its raw input schema, after checking every rule; the output may carry none. */
export function mcpHeadersOf(input: JsonObject, output: JsonObject, file: YamlSource, out: Diagnostic[]): McpHeaderIR[] {
  const inputFound: Found[] = [];
  findDeclarations(input, ["input"], [], inputFound);
  const outputFound: Found[] = [];
  findDeclarations(output, ["output"], undefined, outputFound);
  for (const found of outputFound)
    out.push(error(file.locate([...found.at, KEY], { key: true }), Codes.mcpHeaderPlacement, placementProblem(found, "output") ?? ""));
  const headers: McpHeaderIR[] = [];
  const seen = new Map<string, string>();
  for (const found of inputFound) {
    const problem = placementProblem(found, "input");
    if (problem !== undefined) {
      out.push(error(file.locate([...found.at, KEY], { key: true }), Codes.mcpHeaderPlacement, problem));
      continue;
    }
    const header = checkDeclaration(found, file, out);
    if (header === undefined) continue;
    const prior = seen.get(header.name.toLowerCase());
    if (prior !== undefined) {
      out.push(
        error(
          file.locate([...found.at, KEY]),
          Codes.duplicateMcpHeader,
          `\`x-mcp-header\` ${JSON.stringify(header.name)} is already used by \`${prior}\` (header names ignore case): each property needs a header of its own`,
        ),
      );
      continue;
    }
    seen.set(header.name.toLowerCase(), header.path.join("."));
    headers.push(header);
  }
  return headers;
}

/** A named type may carry no declaration: a property inside it is reached through `$ref`. */
export function checkTypeFileHeaders(schema: JsonValue, at: JsonPath, file: YamlSource, out: Diagnostic[]): void {
  const found: Found[] = [];
  findDeclarations(schema, at, undefined, found);
  for (const one of found) out.push(error(file.locate([...one.at, KEY], { key: true }), Codes.mcpHeaderPlacement, placementProblem(one, "type") ?? ""));
}
