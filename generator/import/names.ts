/**
 * Tool names an import writes. `generate` refuses two names that are valid
 * MCP names (normalize/index.ts): `__proto__` and `then` would be keys of
 * the generated objects with a meaning of their own. Both imports rename
 * them, with a note, rather than write a contract that cannot compile.
 */

/** The names `generate` refuses, and what an import writes instead. */
export const RESERVED_RENAMES: ReadonlyMap<string, string> = new Map([
  ["__proto__", "proto_tool"],
  ["then", "then_tool"],
]);

/** `name` or its replacement, and the note to write when it was replaced; `taken` says which names are in use (lower case). */
export function avoidReserved(name: string, taken: (lower: string) => boolean): { name: string; note?: string } {
  const base = RESERVED_RENAMES.get(name);
  if (base === undefined) return { name };
  let renamed = base;
  for (let i = 2; taken(renamed.toLowerCase()); i++) renamed = `${base}_${i}`;
  const why = name === "then" ? "an object with a `then` method is a thenable, which `await` would call" : "as an object key it sets the prototype";
  return {
    name: renamed,
    note: `renamed from ${JSON.stringify(name)}: toolc generate refuses that name (${why}); MCP clients now call ${JSON.stringify(renamed)}`,
  };
}

/** Provider-safe tool names (OpenAI and Anthropic: `^[A-Za-z0-9_-]{1,64}$`). */
export const PROVIDER_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
