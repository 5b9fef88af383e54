/**
 * JSON Pointers as the compiler writes and reads them in schemas: `$ref`
 * fragments, `$defs` references and the pointers diagnostics name. Built on
 * the runtime's RFC 6901 decoding (runtime/pointer.ts), which generated code
 * needs too; these helpers only the compiler uses, so they are not copied
 * into a project.
 */
import { encodeToken, PointerError, pointerTokens } from "../runtime/pointer.js";

export { PointerError, pointerTokens };

/** The tokens of a pointer written as a URI fragment (after `#`): percent-decoded first, then as pointerTokens reads a pointer. */
export function fragmentTokens(fragment: string): string[] {
  let pointer: string;
  try {
    pointer = decodeURIComponent(fragment);
  } catch {
    const badHex = /%(?![0-9A-Fa-f]{2})/.exec(fragment);
    const why = badHex
      ? `${JSON.stringify(fragment.slice(badHex.index, badHex.index + 3))} is not \`%\` followed by two hex digits`
      : "the percent-encoded bytes are not valid UTF-8";
    throw new PointerError(`malformed percent-encoding: ${why}; write %25 for a literal \`%\``);
  }
  return pointerTokens(pointer);
}

/** `base` with `tokens` appended, each encoded: `pointerJoin("/a", "b/c", 0)` is `/a/b~1c/0`. */
export function pointerJoin(base: string, ...tokens: readonly (string | number)[]): string {
  let pointer = base;
  for (const token of tokens) pointer += `/${encodeToken(String(token))}`;
  return pointer;
}

/** The reference to the root's `$defs` entry `name`, as a URI fragment. */
export function defsRef(name: string): string {
  return `#${pointerJoin("/$defs", name).replace(/[%#"<>\\^`{|} ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`)}`;
}
