import { describe, expect, it } from "vitest";
import { escapeComment, jsDoc } from "../../../generator/printer/literal.js";
import { schemaDocLines } from "../../../generator/emit/types/jsdoc.js";
import { testContext, typeTextOf } from "./helpers.js";

describe("JSDoc", () => {
  it("escapes */ so contract text cannot close the comment", () => {
    expect(escapeComment("a */ b **/ c")).toBe("a *\\/ b **\\/ c");
  });

  it("escapes */ in every annotation, including JSON defaults and formats", () => {
    const docs = schemaDocLines({ title: "T*/", description: "D */", format: "x*/y", default: "*/" });
    expect(docs.join("\n")).not.toContain("*/");
  });

  it("puts every line, whatever the line terminator, behind the * prefix", () => {
    const doc = jsDoc(schemaDocLines({ description: "one\r\ntwo\rthree\u2028four\u2029five */ end" }))!;
    expect(doc).toBe(["/**", " * one", " * two", " * three", " * four", " * five *\\/ end", " */"].join("\n"));
    expect(jsDoc(["a\u2028b"])).toBe("/**\n * a\n * b\n */");
  });

  it("orders title, description, then tags", () => {
    expect(schemaDocLines({ title: "Title", description: "Body", default: false, deprecated: true })).toEqual(["Title", "", "Body", "@default false", "@deprecated"]);
  });

  it("says what x-sensitive does to the value, which its type cannot", () => {
    expect(schemaDocLines({ description: "Key.", "x-sensitive": true })).toEqual(["Key.", "Sensitive (`x-sensitive`): never in a message, an issue or a trace."]);
    expect(schemaDocLines({ "x-sensitive": "withhold" })).toEqual(["Withheld (`x-sensitive: withhold`): in output, a handler may return it, and no caller receives it."]);
    expect(schemaDocLines({ "x-sensitive": false })).toEqual([]);
  });

  it("a hostile description yields a type literal with exactly one comment", () => {
    const text = typeTextOf(
      { type: "object", properties: { a: { type: "string", description: "*/ x: number; /*" } }, additionalProperties: false },
      testContext(),
    );
    expect(text).toBe("{\n  /** *\\/ x: number; /* */\n  a?: string;\n}");
    expect(text.match(/\*\//g)).toHaveLength(1);
  });

  it("says nothing when there is nothing to say", () => {
    expect(jsDoc(schemaDocLines({ type: "string" }))).toBeUndefined();
    expect(jsDoc([])).toBeUndefined();
  });
});
