/**
 * Diagnostics a new user meets in the first minutes: an unknown `format` is
 * an error reported with the file's other problems, located, with a
 * suggestion; `required: true` on a property points to the object's
 * `required` list; and the unbounded-input warning (TC036) keeps quiet on
 * formats whose grammar already bounds the length.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";

function diagnose(files: Record<string, string>): string[] {
  const loaded = loadDefinitionsFromTexts(Object.entries(files).map(([source, text]) => ({ source, display: `definitions/${source}`, text })));
  return normalize(loaded).diagnostics.map(formatDiagnostic);
}

function tool(input: string, rest = ""): string {
  return `name: t\nversion: 1\ndescription: d\neffect: read\ninput:\n${input}\noutput: { type: object }\n${rest}`;
}

describe("unknown formats", () => {
  it("are errors at the value, with a suggestion, every one at once, beside the file's other problems", () => {
    const lines = diagnose({
      "t.yaml": tool("  type: object\n  properties:\n    at: { type: string, format: datetime }\n    day: { type: string, format: Date }\n    n: { type: integr }"),
    });
    expect(lines).toEqual([
      expect.stringMatching(/^definitions\/t\.yaml:8:33: error TC033: unknown format "datetime"; did you mean `date-time`\? toolc checks date, time, date-time, duration, uuid/),
      expect.stringMatching(/^definitions\/t\.yaml:9:34: error TC033: unknown format "Date"; did you mean `date`\?/),
      expect.stringMatching(/^definitions\/t\.yaml:10:16: error TC003: `input.properties.n.type`/),
    ]);
    expect(lines.join("\n")).not.toContain("ignored");
  });

  it("are reported with a tool's schema errors, and in a types file once, not again by each tool that uses the type", () => {
    const types = "types:\n  Stamp: { type: string, format: date_time }\n";
    const lines = diagnose({
      "types.yaml": types,
      "t.yaml": tool("  type: object\n  properties:\n    at: { $ref: 'types.yaml#/Stamp' }\n    b: { $ref: 'types.yaml#/Nope' }"),
    });
    expect(lines).toEqual([
      expect.stringMatching(/^definitions\/t\.yaml:9:16: error TC020: cannot resolve \$ref "types.yaml#\/Nope"/),
      expect.stringMatching(/^definitions\/types\.yaml:2:34: error TC033: unknown format "date_time"; did you mean `date-time`\?/),
    ]);
  });
});

describe("required: true on a property", () => {
  it.each([
    { flag: "true", want: /error TC003: `required: true` on property `name` is not JSON Schema 2020-12; list it in `input`'s `required` instead: `required: \[name\]` beside `properties`/ },
    { flag: "false", want: /error TC003: `required: false` on property `name` is not JSON Schema 2020-12; leave it out/ },
  ])("required: $flag says what to write instead", ({ flag, want }) => {
    const lines = diagnose({ "t.yaml": tool(`  type: object\n  properties:\n    name: { type: string, maxLength: 9, required: ${flag} }`) });
    expect(lines).toEqual([expect.stringMatching(want)]);
    expect(lines[0]).toMatch(/^definitions\/t\.yaml:8:41:/);
  });

  it("points nested objects to their own list", () => {
    const lines = diagnose({ "t.yaml": tool("  type: object\n  properties:\n    address:\n      type: object\n      properties:\n        city: { type: string, maxLength: 9, required: true }") });
    expect(lines).toEqual([expect.stringMatching(/list it in `input\.properties\.address`'s `required` instead: `required: \[city\]`/)]);
  });
});

describe("TC036, unbounded input strings", () => {
  it.each(["date", "time", "date-time", "uuid", "ipv4", "ipv6", "hostname"])("is quiet on format %s, whose grammar bounds the length", (format) => {
    expect(diagnose({ "t.yaml": tool(`  type: object\n  properties:\n    v: { type: string, format: ${format} }`) })).toEqual([]);
  });

  it.each(["uri", "email", "duration", "regex", "json-pointer"])("still warns on format %s, which any length can satisfy", (format) => {
    expect(diagnose({ "t.yaml": tool(`  type: object\n  properties:\n    v: { type: string, format: ${format} }`) })).toEqual([
      expect.stringMatching(/warning TC036: input is a string with no `maxLength`/),
    ]);
  });
});

describe("examples that expect a rejection", () => {
  const errors = "errors:\n  CUSTOMER_BLOCKED: { description: Blocked. }\n";
  const input = "  type: object\n  properties:\n    id: { type: string, maxLength: 9 }";

  it("compile when the reason is declared and the input is valid", () => {
    expect(diagnose({ "t.yaml": tool(input, `${errors}examples:\n  - name: blocked\n    input: { id: b }\n    rejected: CUSTOMER_BLOCKED\n`) })).toEqual([]);
  });

  it.each([
    { name: "an undeclared reason", example: "    input: { id: b }\n    rejected: CUSTOMER_BLOKED\n", want: /t\.yaml:15:15: error TC053: example "x": `rejected: CUSTOMER_BLOKED` is not one of the contract's errors \(declared: CUSTOMER_BLOCKED; did you mean `CUSTOMER_BLOCKED`\?\)/ },
    { name: "an output besides", example: "    input: { id: b }\n    rejected: CUSTOMER_BLOCKED\n    output: {}\n", want: /t\.yaml:16:5: error TC053: example "x" is `rejected`, so it has no output/ },
    { name: "invalid paths besides", example: "    input: { id: b }\n    rejected: CUSTOMER_BLOCKED\n    invalid: [id]\n", want: /t\.yaml:16:5: error TC053: example "x" is `rejected`, so it has no invalid paths/ },
    { name: "an input the schema rejects", example: "    input: { id: 7 }\n    rejected: CUSTOMER_BLOCKED\n", want: /t\.yaml:14:18: error TC050: example "x": input breaks the input schema/ },
  ])("refuse $name", ({ example, want }) => {
    expect(diagnose({ "t.yaml": tool(input, `${errors}examples:\n  - name: x\n${example}`) })).toEqual([expect.stringMatching(want)]);
  });
});

describe("a default on a named type's root", () => {
  it("is a located error (TC034), not a crash of the validator emitter", () => {
    const lines = diagnose({
      "types.yaml": "types:\n  Money:\n    default: 12\n    type: object\n    properties: { cents: { type: integer } }\n",
      "t.yaml": tool("  type: object\n  properties:\n    m: { $ref: 'types.yaml#/Money' }"),
    });
    expect(lines).toEqual([expect.stringMatching(/^definitions\/types\.yaml:3:5: error TC034: `default` on the named type `Money` itself is never applied/)]);
  });
});
