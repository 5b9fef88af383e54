import { describe, expect, it } from "vitest";
import { refKey } from "../../../generator/emit/types/ref.js";
import { testContext, typeTextOf } from "./helpers.js";

describe("$ref", () => {
  it("resolves a $defs key through the context", () => {
    const ctx = testContext({ names: { Order: "Order$1", Local: "GetOrderLocal" } });
    expect(typeTextOf({ $ref: "#/$defs/Order" }, ctx)).toBe("Order$1");
    expect(typeTextOf({ $ref: "#/$defs/Local", description: "annotations beside a ref" }, ctx)).toBe("GetOrderLocal");
  });

  it("decodes JSON Pointer and URI escapes", () => {
    expect(refKey("#/$defs/a~1b~0c")).toBe("a/b~c");
    expect(refKey("#/$defs/with%20space")).toBe("with space");
  });

  it("reads a reference as Ajv does, percent-decoding before splitting the pointer (the schema toolkit's defsEntryName)", () => {
    expect(refKey("#/%24defs/A")).toBe("A");
    expect(() => refKey("#/$defs/a%2Fb")).toThrow(/unsupported \$ref/);
  });

  it("refuses anything but #/$defs/<key>", () => {
    for (const ref of ["#", "#/$defs/A/properties/x", "types.yaml#/Order", "#/definitions/A"]) {
      expect(() => refKey(ref)).toThrow(/unsupported \$ref/);
    }
  });

  it("propagates an unknown key", () => {
    expect(() => typeTextOf({ $ref: "#/$defs/Nope" }, testContext({ names: {} }))).toThrow(/unknown def Nope/);
  });
});
