// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * JSON Pointer (RFC 6901), decoded in one place. A pointer in a URI fragment
 * (`#/$defs/Order%20Line`, as in `$ref`) is percent-decoded first; then, in
 * each reference token, `~1` becomes `/` and only after that `~0` becomes
 * `~`, so `~01` is the token `~1`, never `/`.
 */

/** Thrown for a pointer that cannot be decoded; the message says why, in plain words. */
export class PointerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PointerError";
  }
}

/** One reference token: `~1` → `/`, then `~0` → `~`; any other `~` is an error. */
export function decodeToken(token: string): string {
  // Most tokens have no escape at all; skip the work for them.
  if (!token.includes("~")) return token;
  if (/~(?![01])/.test(token))
    throw new PointerError(
      `\`~\` must be followed by 0 or 1 in the pointer token ${JSON.stringify(token)}`,
    );
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The tokens of a pointer in its string form (`/a/b~1c`, as Ajv's instancePath): "" is the whole document. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/"))
    throw new PointerError(
      `a JSON pointer must be empty or start with "/", not ${JSON.stringify(pointer.slice(0, 40))}`,
    );
  return pointer.slice(1).split("/").map(decodeToken);
}

/** The tokens of a pointer written as a URI fragment (after `#`): percent-decoded first, then as above. */
export function fragmentTokens(fragment: string): string[] {
  let pointer: string;
  try {
    pointer = decodeURIComponent(fragment);
  } catch {
    const badHex = /%(?![0-9A-Fa-f]{2})/.exec(fragment);
    const why = badHex
      ? `${JSON.stringify(fragment.slice(badHex.index, badHex.index + 3))} is not \`%\` followed by two hex digits`
      : "the percent-encoded bytes are not valid UTF-8";
    throw new PointerError(
      `malformed percent-encoding: ${why}; write %25 for a literal \`%\``,
    );
  }
  return pointerTokens(pointer);
}

/** One reference token encoded: `~` → `~0` first, then `/` → `~1`. */
export function encodeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** `base` with `tokens` appended, each encoded: `pointerJoin("/a", "b/c", 0)` is `/a/b~1c/0`. */
export function pointerJoin(
  base: string,
  ...tokens: readonly (string | number)[]
): string {
  let pointer = base;
  for (const token of tokens) pointer += `/${encodeToken(String(token))}`;
  return pointer;
}

/** The reference to the root's `$defs` entry `name`, as a URI fragment. */
export function defsRef(name: string): string {
  return `#${pointerJoin("/$defs", name).replace(/[%#"<>\\^`{|} ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`)}`;
}

/** The `$defs` entry a reference names (`#/$defs/<name>`, decoded), or undefined for any other reference. */
export function defsEntryName(ref: unknown): string | undefined {
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return undefined;
  try {
    const tokens = fragmentTokens(ref.slice(1));
    return tokens.length === 2 ? tokens[1] : undefined;
  } catch {
    return undefined;
  }
}
