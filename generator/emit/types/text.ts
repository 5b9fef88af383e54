/**
 * Property names in type literals and in `index.ts`'s `contracts` object:
 * bare when the name is an identifier, else a JSON string.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as written in a type literal: bare when it is an identifier, else a JSON string. */
export function propertyName(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}
