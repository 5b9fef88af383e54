/**
 * Whether bundling would leave a description exactly as it is, so the
 * parser's `bundle` can be skipped. A description in one document whose
 * references are all plain local pointers (`#/components/schemas/Name`),
 * each naming a value directly (through no other `$ref`), is what
 * json-schema-ref-parser's bundle writes back unchanged: it rewrites each
 * internal reference to the pointer it resolved, which is the one it had.
 * Finding that out is what the bundle costs on a large description (GitHub's
 * 13 MB: it crawls every referenced value again from each reference and
 * looks each reference up in a list of all of them); checking it here is one
 * walk of the document. Anything else (another document, an escaped or
 * encoded pointer, a reference to a reference, a missing target) answers
 * false and goes through the bundle, with its own rewriting and errors.
 */
import { isJsonObject } from "../../schema/json.js";

/** The value `ref` names in `doc`, or undefined when the bundle would resolve it in any other way than taking each token as an own key. */
function directTarget(doc: Record<string, unknown>, ref: string): unknown {
  // The parser resolves a reference as a URL: a pointer URL syntax would re-encode (a space, a quote) comes back changed.
  if (new URL(ref, "file:///description.json").hash !== ref) return undefined;
  let value: unknown = doc;
  for (const token of ref.slice(2).split("/")) {
    // `~0`/`~1` escapes and percent-encoding are decoded by the parser's own rules: left to it.
    if (token.includes("~") || token.includes("%")) return undefined;
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, token)) return undefined;
    value = (value as Record<string, unknown>)[token];
    // A reference met on the way (or at the end) is followed by the parser, which then rewrites the pointer.
    if (value === null || value === undefined || (typeof value === "object" && "$ref" in value)) return undefined;
  }
  return value;
}

/**
 * True when bundling `doc`, the description's only document, changes
 * nothing: every object with a `$ref` string in it (wherever it is, as the
 * bundle crawls everything) holds a local pointer that names its target
 * directly.
 */
export function bundlesUnchanged(doc: unknown): boolean {
  if (!isJsonObject(doc) || "$ref" in doc) return false;
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === "object") stack.push(item);
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    const ref = (value as Record<string, unknown>).$ref;
    if (typeof ref === "string" && ref !== "") {
      if (!ref.startsWith("#/") || directTarget(doc, ref) === undefined) return false;
      // The bundle reads nothing else of a reference object (its siblings stay as they are) but crawls its target, which is checked where it stands.
      continue;
    }
    for (const item of Object.values(value)) if (item !== null && typeof item === "object") stack.push(item);
  }
  return true;
}
