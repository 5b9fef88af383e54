/** The typed client drops output properties its schema does not declare, where it can tell. */
import { describe, expect, it } from "vitest";
import { dropUnknownProperties } from "../../generator/runtime/unknown-properties.js";

const schema = {
  type: "object",
  properties: {
    id: { type: "string" },
    order: { $ref: "#/$defs/Order" },
    list: { type: "array", items: { $ref: "#/$defs/Order" } },
    labels: { type: "object", additionalProperties: { type: "string" } },
    open: { type: "object", properties: { a: { type: "string" } } },
    either: { anyOf: [{ type: "object", properties: { a: { type: "string" } }, additionalProperties: false }, { type: "string" }] },
  },
  additionalProperties: false,
  $defs: { Order: { type: "object", properties: { id: { type: "string" } }, additionalProperties: false } },
};

describe("dropUnknownProperties", () => {
  it("removes undeclared properties of closed objects, through $ref, arrays and maps", () => {
    const value = {
      id: "x", extra: 1,
      order: { id: "o", placedBy: "p" },
      list: [{ id: "a", newField: true }, { id: "b" }],
      labels: { any: "kept" },
      open: { a: "1", b: "kept: this object is open" },
    };
    dropUnknownProperties(schema, value);
    expect(value).toEqual({ id: "x", order: { id: "o" }, list: [{ id: "a" }, { id: "b" }], labels: { any: "kept" }, open: { a: "1", b: "kept: this object is open" } });
  });

  it("leaves objects under anyOf alone, and drops a __proto__ key as an own property", () => {
    const value = { id: "x", either: { a: "1", b: "2" } };
    Object.defineProperty(value, "__proto__", { value: { polluted: true }, enumerable: true, configurable: true, writable: true });
    dropUnknownProperties(schema, value);
    expect(Object.keys(value)).toEqual(["id", "either"]);
    expect(value.either).toEqual({ a: "1", b: "2" });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});
