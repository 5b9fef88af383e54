/**
 * Local `$ref`s: the `$defs` entry one names, the node one points at, and
 * the references a schema holds. A local reference is a URI fragment
 * holding a JSON pointer (RFC 6901, §6), so it is percent-decoded, then
 * `~`-decoded, before it is followed: `#/%24defs/A` names `$defs/A` as Ajv
 * reads it.
 */
import type { JsonValue } from "../ir.js";
import { fragmentTokens } from "./pointer.js";
import { isJsonObject } from "./json.js";

/** Keywords that change what a `$ref` resolves to (a base URI, an anchor, a dynamic scope): a schema with any of them is not one whose local refs can be followed by pointer alone. */
export const REF_SCOPE_KEYWORDS: ReadonlySet<string> = new Set(["$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"]);

/** The tokens of a local reference (`#…`), or undefined for any other reference or a fragment that does not decode. */
function localTokens(ref: string): string[] | undefined {
  if (!ref.startsWith("#")) return undefined;
  try {
    return fragmentTokens(ref.slice(1));
  } catch {
    return undefined;
  }
}

/** The root `$defs` entry a reference names (`#/$defs/<name>`, decoded), or undefined for any other reference. */
export function defsEntryName(ref: unknown): string | undefined {
  const tokens = typeof ref === "string" ? localTokens(ref) : undefined;
  return tokens?.length === 2 && tokens[0] === "$defs" ? tokens[1] : undefined;
}

/** The value a local reference points at inside `root` (`#` is the root), or undefined when it points at nothing. */
export function resolveLocalRef(root: JsonValue, ref: string): JsonValue | undefined {
  const tokens = localTokens(ref);
  if (tokens === undefined) return undefined;
  let node: JsonValue | undefined = root;
  for (const token of tokens) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isJsonObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** Every `$ref` string anywhere in `value`, in document order; a `$ref` that is not a string (a property named `$ref`) is walked into. */
export function refsIn(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, into);
  else if (isJsonObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (key === "$ref" && typeof v === "string") into.push(v);
      else refsIn(v, into);
    }
  }
  return into;
}
