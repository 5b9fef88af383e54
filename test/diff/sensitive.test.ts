/**
 * `toolc diff` on `x-sensitive` (contract-format.md): withholding an output
 * value callers received breaks them; delivering one that was withheld, or
 * dropping the mark so the value may reach traces and logs, is a warning;
 * adding the mark is info. On input `withhold` means `true`.
 */
import { describe, expect, it } from "vitest";
import { EMPTY_DIFF_CONFIG } from "../../generator/diff/config.js";
import { diffContracts } from "../../generator/diff/index.js";
import { sideFromTexts } from "../../generator/diff/sources.js";

type Mark = "true" | "withhold" | undefined;

const field = (mark: Mark): string => `{ type: string${mark === undefined ? "" : `, x-sensitive: ${mark}`} }`;

/** A tool whose input `token` and output `note` carry the marks given; `types.yaml` holds a named type used by the output. */
function texts(input: Mark, output: Mark, named: Mark = undefined) {
  const tool = [
    "name: t",
    "version: 1",
    "description: A tool.",
    "effect: read",
    `input: { type: object, properties: { token: ${field(input === "withhold" ? "true" : input)} } }`,
    `output: { type: object, properties: { note: ${field(output)}, card: { $ref: "types.yaml#/Card" } } }`,
    "",
  ].join("\n");
  const types = `types:\n  Card: { type: object, properties: { number: ${field(named)} } }\n`;
  return [
    { source: "t.yaml", display: "t.yaml", text: tool },
    { source: "types.yaml", display: "types.yaml", text: types },
  ];
}

function changes(base: ReturnType<typeof texts>, head: ReturnType<typeof texts>): string[] {
  const side = (t: ReturnType<typeof texts>) => {
    const result = sideFromTexts(t, ".");
    if (!result.side) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
    return result.side;
  };
  return diffContracts(side(base), side(head), EMPTY_DIFF_CONFIG).changes.map((c) => `${c.rule} ${c.level} ${c.field ?? ""}`);
}

describe("x-sensitive rules", () => {
  it.each([
    ["an output value withheld", texts(undefined, "true"), texts(undefined, "withhold"), ["sensitive-withheld breaking output.note"]],
    ["an unmarked output value withheld", texts(undefined, undefined), texts(undefined, "withhold"), ["sensitive-withheld breaking output.note"]],
    ["a withheld output value delivered", texts(undefined, "withhold"), texts(undefined, "true"), ["sensitive-delivered warning output.note"]],
    ["an input mark removed", texts("true", undefined), texts(undefined, undefined), ["sensitive-unmarked warning input.token"]],
    ["an input mark added", texts(undefined, undefined), texts("true", undefined), ["sensitive-marked info input.token"]],
    ["a mark removed inside a named type", texts(undefined, undefined, "true"), texts(undefined, undefined, undefined), ["sensitive-unmarked warning Card.number"]],
    ["nothing changed", texts("true", "withhold", "true"), texts("true", "withhold", "true"), []],
  ])("%s", (_name, base, head, expected) => {
    expect(changes(base, head)).toEqual(expected);
  });

  it("withholding a value without a version bump fails the diff", () => {
    const side = (t: ReturnType<typeof texts>) => sideFromTexts(t, ".").side!;
    expect(diffContracts(side(texts(undefined, "true")), side(texts(undefined, "withhold")), EMPTY_DIFF_CONFIG).unversioned).toEqual(["t"]);
  });
});
