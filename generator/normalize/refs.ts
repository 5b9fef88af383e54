/**
 * `$ref` resolution. A contract may refer to a named type in a types file
 * (`types.yaml#/Order`, or `#/types/Order` inside that file) or to a `$defs`
 * entry of the schema it sits in (`#/$defs/X`). Every named reference is
 * rewritten to `#/$defs/<Name>`, and the named types are bundled into the
 * served schema's `$defs`, so the schema a client sees is self-contained.
 */
import { posix } from "node:path";
import { defsRef, fragmentTokens, PointerError } from "../schema/pointer.js";

export type RefTarget =
  | { readonly kind: "named"; readonly file: string; readonly name: string }
  | { readonly kind: "local"; readonly name: string }
  | { readonly kind: "invalid"; readonly reason: string };

/** Parses a `$ref` written in the file at `source` (a definitions-relative posix path). */
export function parseRef(ref: string, source: string): RefTarget {
  const hash = ref.indexOf("#");
  const filePart = hash === -1 ? ref : ref.slice(0, hash);
  const pointer = hash === -1 ? "" : ref.slice(hash + 1);
  if (/^[a-z][a-z0-9+.-]*:/i.test(filePart)) {
    return { kind: "invalid", reason: "remote references are not supported; copy the schema into a types file" };
  }
  let segments: string[];
  try {
    segments = fragmentTokens(pointer);
  } catch (e) {
    return { kind: "invalid", reason: e instanceof PointerError ? e.message : "the part after `#` is not a JSON pointer" };
  }
  if (filePart === "") {
    if (segments.length === 2 && segments[0] === "$defs") return { kind: "local", name: segments[1] };
    if (segments.length === 2 && segments[0] === "types") return { kind: "named", file: source, name: segments[1] };
    return { kind: "invalid", reason: "a local reference must be `#/$defs/Name` or, in a types file, `#/types/Name`" };
  }
  const file = posix.normalize(posix.join(posix.dirname(source), filePart));
  if (segments.length === 1 && segments[0] !== "") return { kind: "named", file, name: segments[0] };
  if (segments.length === 2 && segments[0] === "types") return { kind: "named", file, name: segments[1] };
  return { kind: "invalid", reason: "a reference to a types file must be `file.yaml#/Name`" };
}

export function namedRef(name: string): string {
  return defsRef(name);
}
