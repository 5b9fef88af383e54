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

/** One reference token encoded: `~` → `~0` first, then `/` → `~1`. */
export function encodeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}
