/**
 * The unsafe keys of a definition (`__proto__`, a map or list as a key) are
 * found by a walk of the YAML tree of its own (load/yaml-source.ts), every
 * file being walked: it must report what the yaml package's `visit` finds,
 * in the same (document) order, keys inside keys included.
 */
import { isAlias, isScalar, parseDocument, visit, type Node } from "yaml";
import { describe, expect, it } from "vitest";
import { parseYamlSource } from "../../generator/load/yaml-source.js";

const TEXTS = [
  "a: 1\n__proto__: 2\n? [x, y]\n: 3\nb:\n  - {__proto__: 1, ? {c: d}: e}\n  - [f: g, __proto__: h]\n",
  "? {__proto__: 1, ? [z]: 2}\n: v\nlist: [[1, 2], {x: {__proto__: 3}}]\n",
  "x: &a {k: v}\ny: *a\n? *a\n: 5\n",
  "__proto__: x\n",
];

/** Where `visit` finds an unsafe key, in its order: the key's offset, negative for a key that is a map or list. */
function byVisit(text: string): number[] {
  const found: number[] = [];
  visit(parseDocument(text, { uniqueKeys: true, strict: true }), {
    Pair(_, pair) {
      const key = pair.key as Node | null;
      if (isScalar(key) && key.value === "__proto__") found.push(key.range![0]);
      else if (key !== null && !isScalar(key) && !isAlias(key)) found.push(-key.range![0]);
    },
  });
  return found;
}

/** The same, from the loader's diagnostics (line and column back to an offset). */
function byLoader(text: string): number[] {
  const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
  return parseYamlSource(text, "t.yaml", "t.yaml").diagnostics.map((d) => {
    const offset = starts[d.line - 1]! + d.col - 1;
    return d.message.startsWith("a key must be") ? -offset : offset;
  });
}

describe("unsafe keys", () => {
  it.each(TEXTS)("are reported where and in the order the yaml package's visit finds them: %j", (text) => {
    expect(byLoader(text)).toEqual(byVisit(text));
  });

  it("are found at all: a `__proto__` key and a list as a key, located", () => {
    expect(byLoader(TEXTS[0]!).length).toBeGreaterThanOrEqual(5);
  });
});
