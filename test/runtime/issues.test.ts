/**
 * Issue paths are written straight from Ajv's instancePath on the common
 * route, and through decoded segments when the contract has sensitive paths
 * (or the pointer has escapes). Both routes must give the same text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SensitivePaths, ValidationError } from "../../generator/runtime/contract.js";
import { formatPath, toIssues } from "../../generator/runtime/issues.js";

/** A sensitive pattern no path matches: it sends toIssues down the segment route without hiding anything. */
const NEVER: SensitivePaths = [{ properties: { "\u0000never": 1 } }, { sensitive: "secret" }];

const escape = (token: string): string => token.replace(/~/g, "~0").replace(/\//g, "~1");

describe("issue paths", () => {
  it("name the field to fix, with indices only where the data has an array", () => {
    const data = { orders: [{ "1": { "a b": "x" } }], "0": { list: ["y"] } };
    const errors: ValidationError[] = [
      { instancePath: "/orders/0/1/a b", keyword: "type", params: { type: "integer" } },
      { instancePath: "/0/list/0", keyword: "minLength", params: { limit: 2 } },
      { instancePath: "/orders/0", keyword: "required", params: { missingProperty: "id" } },
      { instancePath: "", keyword: "additionalProperties", params: { additionalProperty: "x-y" } },
      { instancePath: "/a~1b~0c", keyword: "propertyNames", params: { propertyName: "k" } },
    ];
    expect(toIssues(errors, data).map((i) => i.path)).toEqual(["orders[0][\"1\"][\"a b\"]", "[\"0\"].list[0]", "orders[0].id", "[\"x-y\"]", "[\"a/b~c\"].k"]);
  });

  it("are the same on the direct route and the segment route, for any pointer into any data", () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, fc.string({ maxLength: 3 }), fc.array(tie("value"), { maxLength: 3 }), fc.dictionary(fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom("0", "1", "01", "~", "/", "a.b", "__proto__")), tie("value"), { maxKeys: 3 })),
    })).value;
    const token = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom("0", "1", "10", "01", "__proto__", "a b", "x~y", "p/q"));
    const keyword = fc.constantFrom("type", "required", "additionalProperties", "unevaluatedProperties", "propertyNames", "minimum");
    fc.assert(
      fc.property(json, fc.array(token, { maxLength: 5 }), keyword, fc.string({ maxLength: 4 }), (data, tokens, kw, name) => {
        const instancePath = tokens.map((t) => `/${escape(t)}`).join("");
        const params = { type: "string", missingProperty: name, additionalProperty: name, unevaluatedProperty: name, propertyName: name, comparison: ">=", limit: 1 };
        const error: ValidationError = { instancePath, keyword: kw, params };
        expect(toIssues([error], data)).toEqual(toIssues([error], data, NEVER));
      }),
      { numRuns: 500 },
    );
  });

  it("are the same when a pointer comes again with other data or another named property", () => {
    const at = (instancePath: string, data: unknown, missingProperty?: string) =>
      toIssues([{ instancePath, keyword: missingProperty === undefined ? "type" : "required", params: { type: "string", missingProperty } }], data)[0]?.path;
    for (let round = 0; round < 2; round++) {
      expect(at("/list/0", { list: ["x"] })).toBe("list[0]");
      expect(at("/list/0", { list: { "0": "x" } })).toBe('list["0"]');
      expect(at("/a/b", { a: { b: 1 } })).toBe("a.b");
      expect(at("/a/b", { a: { b: {} } }, "c")).toBe("a.b.c");
      expect(at("/a/b", { a: { b: {} } }, "d e")).toBe('a.b["d e"]');
      expect(at("/a/b", {})).toBe("a.b");
    }
  });

  it("show a pointer Ajv would never write as it came", () => {
    const error: ValidationError = { instancePath: "no-slash", keyword: "type", params: { type: "string" } };
    expect(toIssues([error], {})).toEqual([{ path: formatPath(["no-slash"]), message: "must be string" }]);
  });

  it("drop exact duplicates and keep the first of each", () => {
    const error: ValidationError = { instancePath: "/a", keyword: "type", params: { type: "string" } };
    const other: ValidationError = { instancePath: "/a", keyword: "minLength", params: { limit: 2 } };
    expect(toIssues([error, other, { ...error }], { a: 1 })).toEqual([
      { path: "a", message: "must be string" },
      { path: "a", message: "must have at least 2 characters" },
    ]);
  });
});
