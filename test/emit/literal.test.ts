/**
 * contracts.ts is written already formatted, without prettier, so the
 * literal writer must give valid TS that evaluates to exactly the value,
 * whatever the keys and strings hold, and lay it out compactly: a container
 * on one line when it fits in LITERAL_WIDTH, else one entry per line.
 */
import { describe, expect, it } from "vitest";
import { literal, LiteralReference, LITERAL_WIDTH } from "../../generator/printer/literal.js";

const evaluate = (source: string): unknown => new Function(`return (${source});`)();

describe("literal", () => {
  const long = (n: number, c: string) => c.repeat(n);
  it.each([
    ["a small object on one line, identifier keys unquoted", { a: 1, b: [true, null] }, "{ a: 1, b: [true, null] }"],
    ["other keys stay quoted", { "toolc/contractVersion": 2, "x-sensitive": true, "1a": 0 }, '{ "toolc/contractVersion": 2, "x-sensitive": true, "1a": 0 }'],
    ["__proto__ becomes a computed key", JSON.parse('{"__proto__": 1}') as object, '{ ["__proto__"]: 1 }'],
    ["a quote before __proto__ inside a key stays inside the key", { 'x"__proto__': 1, '"__proto__":': 2 }, '{ "x\\"__proto__": 1, "\\"__proto__\\":": 2 }'],
    ["empty containers", { o: {}, l: [] }, "{ o: {}, l: [] }"],
    ["a string that looks like a key is left alone", { d: 'x\n  "k": y' }, '{ d: "x\\n  \\"k\\": y" }'],
    // 120 columns exactly: `{ a: "` (6) + 111 + `" }` (3).
    ["a line of exactly LITERAL_WIDTH stays whole", { a: long(111, "x") }, `{ a: "${long(111, "x")}" }`],
    ["one column more breaks it, one entry per line with trailing commas", { a: long(112, "x") }, `{\n  a: "${long(112, "x")}",\n}`],
    [
      "a broken object's children stay compact where they fit",
      { type: "object", properties: { id: { type: "integer" }, name: { type: "string", description: long(60, "d") } }, required: ["id"] },
      `{\n  type: "object",\n  properties: {\n    id: { type: "integer" },\n    name: { type: "string", description: "${long(60, "d")}" },\n  },\n  required: ["id"],\n}`,
    ],
    [
      "a long list of scalars fills its lines",
      { enum: Array.from({ length: 30 }, (_, i) => `value-${i}`) },
      [
        "{",
        "  enum: [",
        `    ${Array.from({ length: 10 }, (_, i) => `"value-${i}",`).join(" ")}`,
        `    ${Array.from({ length: 9 }, (_, i) => `"value-${i + 10}",`).join(" ")}`,
        `    ${Array.from({ length: 9 }, (_, i) => `"value-${i + 19}",`).join(" ")}`,
        '    "value-28", "value-29",',
        "  ],",
        "}",
      ].join("\n"),
    ],
    [
      "a list of objects too long for a line puts each on its own",
      [{ name: long(50, "a") }, { name: long(50, "b") }],
      `[\n  { name: "${long(50, "a")}" },\n  { name: "${long(50, "b")}" },\n]`,
    ],
  ])("%s", (_label, value, expected) => {
    const parsed = JSON.parse(JSON.stringify(value)) as unknown;
    expect(literal(parsed)).toBe(expected);
    expect(evaluate(literal(parsed))).toEqual(parsed);
    for (const line of literal(parsed).split("\n")) expect(line.length).toBeLessThanOrEqual(LITERAL_WIDTH);
  });

  it("counts the columns before it: `lead` and `depth` move where it breaks", () => {
    const value = { a: long(110, "x") };
    expect(literal(value)).toBe(`{ a: "${long(110, "x")}" }`);
    expect(literal(value, 0, 20)).toBe(`{\n  a: "${long(110, "x")}",\n}`);
    expect(literal(value, 5)).toBe(`{\n            a: "${long(110, "x")}",\n          }`);
  });

  it("writes a reference as its expression, on one line or broken", () => {
    expect(literal({ a: new LiteralReference("def_A"), b: 1 })).toBe("{ a: def_A, b: 1 }");
    expect(literal({ a: new LiteralReference("def_A"), b: long(120, "x") })).toBe(`{\n  a: def_A,\n  b: "${long(120, "x")}",\n}`);
  });

  it("keeps a __proto__ key an own property, not the prototype", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const back = evaluate(literal(value)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
    expect(back).toEqual(value);
  });

  it("round-trips the suite of awkward strings", () => {
    const value = { s: ["*/", "</script>", "\u2028", '"":', "\\", "${x}", "`"] };
    expect(evaluate(literal(value))).toEqual(value);
  });
});
