/** docs/evolution.md documents every rule of `toolc diff`, with an example, and no rule that does not exist. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RULE_IDS } from "../../generator/diff/rules.js";

const doc = readFileSync(new URL("../../docs/evolution.md", import.meta.url), "utf8");
/** Rows of the rule tables (the section "The rules"), whose first cell is a rule id: `| \`rule-id\` | … |`. */
const rulesSection = doc.slice(doc.indexOf("## The rules"), doc.indexOf("## Versions"));
const rows = [...rulesSection.matchAll(/^\| `([a-z-]+)` \|(.*)\|$/gm)].map((m) => ({ id: m[1] as string, rest: m[2] as string }));

describe("docs/evolution.md", () => {
  it("has one row per rule, each with its oasdiff counterpart and an example", () => {
    expect(rows.map((r) => r.id).sort()).toEqual([...RULE_IDS].sort());
    for (const row of rows) {
      const cells = row.rest.split(/(?<!\\)\|/).map((c) => c.trim());
      expect(cells.at(-1)?.length, row.id).toBeGreaterThan(10);
      expect(cells.some((c) => /`[a-z-]+`|^none|^closest/.test(c)), `${row.id}: oasdiff column`).toBe(true);
    }
  });

  it("states the measured false-positive rate of every schema rule that can be breaking", () => {
    const schemaRows = rulesSection.slice(0, rulesSection.indexOf("### Policy rules"));
    expect(schemaRows).not.toMatch(/FP:[a-z-]+/);
  });
});
