/**
 * What is left of the type-text helpers: the key quoting index-module.ts
 * writes its `contracts` object with. Types are built as nodes (node.ts) and
 * their keys quoted by literal.ts's `propertyKey`, which also writes
 * `__proto__` as a computed key; this goes once index-module.ts uses that too.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as written in an object: bare when it is an identifier, else a JSON string. */
export function propertyName(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}
