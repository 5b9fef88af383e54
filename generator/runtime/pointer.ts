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
  if (/~(?![01])/.test(token)) throw new PointerError(`\`~\` must be followed by 0 or 1 in the pointer token ${JSON.stringify(token)}`);
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The tokens of a pointer in its string form (`/a/b~1c`, as Ajv's instancePath): "" is the whole document. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new PointerError(`a JSON pointer must be empty or start with "/", not ${JSON.stringify(pointer.slice(0, 40))}`);
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
    throw new PointerError(`malformed percent-encoding: ${why}; write %25 for a literal \`%\``);
  }
  return pointerTokens(pointer);
}
