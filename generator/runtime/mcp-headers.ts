// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The `Mcp-Param-*` headers of SEP-2243 (MCP 2026-07-28, Streamable HTTP):
 * a client mirrors each argument whose input property carries
 * `x-mcp-header` into `Mcp-Param-{name}`, and a server that reads the body
 * must refuse a request whose headers disagree with it, with HTTP 400 and
 * JSON-RPC -32020 (HeaderMismatch), before anything runs. SDK 2.x checks
 * them only for tools registered on an `McpServer`; toolc serves the
 * low-level `Server`, so the HTTP entry checks them here, from the
 * declarations the compiler put in each contract. Nothing here needs
 * Node's types.
 */
import type { ContractMap, McpParamHeader } from "./contract.js";

/** JSON-RPC error code for a header that disagrees with the body (2026-07-28, HeaderMismatch). */
export const HEADER_MISMATCH = -32020;

type Headers = { readonly [name: string]: string | string[] | undefined };

const isRecord = (
  value: unknown,
): value is { readonly [key: string]: unknown } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** RFC 9110 field-value characters: visible ASCII, space and tab. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
const CANONICAL_BASE64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** The header's value after the Base64 sentinel is decoded, or undefined when it is malformed. */
function decodeHeader(value: string): string | undefined {
  if (!FIELD_VALUE.test(value)) return undefined;
  if (!(
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX) &&
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length
  ))
    return value;
  const encoded = value.slice(
    SENTINEL_PREFIX.length,
    value.length - SENTINEL_SUFFIX.length,
  );
  if (!CANONICAL_BASE64.test(encoded)) return undefined;
  try {
    const binary = atob(encoded);
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
  } catch {
    return undefined;
  }
}

/** What a client puts in the header for an argument (the revision's type conversion); undefined: no header is expected. */
function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (
    typeof value === "number" &&
    Number.isFinite(value) &&
    (!Number.isInteger(value) || Number.isSafeInteger(value))
  )
    return String(value);
  return undefined;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** Whether the header's decoded value stands for the argument; integers compare as numbers (`42.0` is `42`). */
function matches(
  declared: McpParamHeader,
  decoded: string,
  value: unknown,
  text: string,
): boolean {
  if (
    declared.type === "integer" &&
    typeof value === "number" &&
    DECIMAL.test(decoded)
  )
    return Number(decoded) === value;
  return decoded === text;
}

/** Why the headers disagree with one argument, or undefined when they agree. */
function mismatchOf(
  declared: McpParamHeader,
  args: unknown,
  headers: Headers,
): string | undefined {
  const header = `Mcp-Param-${declared.name}`;
  const value = valueAt(args, declared.path);
  const text = value === null ? undefined : headerText(value);
  // Null or absent in the body: no header is expected, and one that is sent is ignored.
  if (text === undefined) return undefined;
  const at = `arguments.${declared.path.join(".")}`;
  const raw = headers[header.toLowerCase()];
  if (raw === undefined)
    return `Header mismatch: ${at} is in the body but the ${header} header is missing.`;
  const decoded = typeof raw === "string" ? decodeHeader(raw) : undefined;
  if (decoded === undefined)
    return `Header mismatch: the ${header} header is malformed.`;
  return matches(declared, decoded, value, text)
    ? undefined
    : `Header mismatch: the ${header} header does not match ${at}.`;
}

/** Each tool's `x-mcp-header` declarations, by MCP tool name; tools without any are left out. */
export function headerDeclarations(
  contracts: ContractMap,
): ReadonlyMap<string, readonly McpParamHeader[]> {
  const byTool = new Map<string, readonly McpParamHeader[]>();
  for (const contract of Object.values(contracts)) {
    if (contract.mcpHeaders !== undefined && contract.mcpHeaders.length > 0)
      byTool.set(contract.name, contract.mcpHeaders);
  }
  return byTool;
}

/**
 * Why a POST body's tools/call disagrees with its `Mcp-Param-*` headers, or
 * undefined. Only a 2026-07-28 request is checked: one whose `_meta` names
 * its version under `versionKey` (the SDK serves such a request on the
 * modern path). A tool without declarations (or one toolc does not serve)
 * has nothing to check.
 */
export function paramHeaderMismatch(
  body: unknown,
  headers: Headers,
  declarations: ReadonlyMap<string, readonly McpParamHeader[]>,
  versionKey: string | undefined,
): string | undefined {
  if (
    versionKey === undefined ||
    declarations.size === 0 ||
    !isRecord(body) ||
    body["method"] !== "tools/call"
  )
    return undefined;
  const params = body["params"];
  if (!isRecord(params) || typeof params["name"] !== "string") return undefined;
  const meta = params["_meta"];
  if (!isRecord(meta) || !Object.hasOwn(meta, versionKey)) return undefined;
  for (const one of declarations.get(params["name"]) ?? []) {
    const problem = mismatchOf(one, params["arguments"], headers);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
