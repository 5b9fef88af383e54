/**
 * The report formats against names and values written to break out of them:
 * a property name and enum values with backticks, HTML, emphasis, a mention,
 * a link and line breaks that start workflow commands. Markdown must render
 * them as plain text; the github and text formats must keep one change per
 * line, so no line a contract author wrote can become a `::command`.
 */
import { describe, expect, it } from "vitest";
import { EMPTY_DIFF_CONFIG } from "../../generator/diff/config.js";
import { formatReport, markdownText } from "../../generator/diff/format.js";
import { diffContracts } from "../../generator/diff/index.js";
import { sideFromTexts } from "../../generator/diff/sources.js";

const ATTACK = "x`</code><img src=x onerror=alert(1)>` **bold** _em_ ~~gone~~ [link](https://evil.example) @octocat #1\n::error file=a.yaml::pwned\r\n::stop-commands::t";

function side(enumValues: unknown[], property: string) {
  const tool = {
    name: "t", version: 1, description: "t", effect: "read",
    input: { type: "object", properties: { [property]: { type: "string" }, kind: { enum: enumValues } } },
    output: { type: "object" },
  };
  const result = sideFromTexts([{ source: "t.yaml", display: "t.yaml", text: JSON.stringify(tool) }], ".");
  if (!result.side) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return result.side;
}

/** A diff whose changes carry the attack in a property name (removed) and in an enum value (removed). */
const result = diffContracts(side(["ok", ATTACK], ATTACK), side(["ok"], "plain"), EMPTY_DIFF_CONFIG);

describe("--format markdown", () => {
  const text = formatReport(result, "markdown");
  const rows = text.split("\n").filter((l) => l.startsWith("| breaking"));

  it("keeps each change in one table row", () => {
    expect(result.changes.length).toBeGreaterThanOrEqual(2);
    expect(rows).toHaveLength(result.changes.filter((c) => c.level === "breaking").length);
    for (const row of rows) expect(row.match(/(?<!\\)\|/g)).toHaveLength(6);
  });

  it("leaves no code span, HTML, emphasis, strikethrough, link, mention or issue reference", () => {
    // The cells after level and rule (whose code span is toolc's own rule id).
    const body = rows.map((r) => r.split(/(?<!\\)\|/).slice(3).join("|")).join("\n");
    expect(body).toContain("x\\`");
    expect(body).not.toMatch(/(?<!\\)`/);
    expect(body).not.toMatch(/(?<!\\)<img/);
    expect(body).not.toMatch(/(?<!\\)\*\*/);
    expect(body).not.toMatch(/(?<!\\)_em(?<!\\)_/);
    expect(body).not.toMatch(/(?<!\\)~~/);
    expect(body).not.toMatch(/(?<!\\)\[link(?<!\\)\]/);
    expect(body).not.toContain("@octocat");
    expect(body).not.toContain("#1");
    expect(body).not.toContain("https://");
    expect(body).not.toMatch(/\n::/);
  });

  it("escapes as CommonMark allows, so the text still reads the same", () => {
    expect(markdownText("a`b*c_d<e>[f]|g~h&i")).toBe("a\\`b\\*c\\_d\\<e\\>\\[f\\]\\|g\\~h\\&i");
    expect(markdownText("@team #12")).toBe("@\u2060team \\#\u206012");
    expect(markdownText("line\nbreak")).toBe("line break");
  });
});

describe("--format github and text", () => {
  for (const format of ["github", "text"] as const) {
    it(`${format}: one line per change and the summary; no line a contract wrote starts a workflow command`, () => {
      const lines = formatReport(result, format).split("\n").filter((l) => l !== "");
      expect(lines).toHaveLength(result.changes.length + 1);
      const own = format === "github" ? /^::(error|warning|notice) file=/ : /^t\.yaml:\d+:\d+: /;
      for (const line of lines.slice(0, -1)) expect(line).toMatch(own);
      expect(lines.at(-1)).toMatch(/^toolc diff: /);
      expect(lines.some((l) => l.startsWith("::stop-commands") || l.startsWith("::error file=a.yaml"))).toBe(false);
    });
  }

  it("github: the message keeps the text, with line breaks as %0D%0A, as the Actions toolkit escapes it", () => {
    const text = formatReport(result, "github");
    expect(text).toContain("%0A::error file=a.yaml::pwned%0D%0A::stop-commands::t");
  });
});

describe("order of the rows", () => {
  // In file order the info change (timeoutMs, line 5) comes before the breaking one (maxLength, line 6): the report must not keep it.
  const tool = (timeoutMs: number, maxLength: number): string =>
    ["name: t", "version: 1", "description: t", "effect: read", `timeoutMs: ${timeoutMs}`, `input: { type: object, properties: { q: { type: string, maxLength: ${maxLength} } } }`, "output: { type: object }", ""].join("\n");
  const sideOf = (text: string) => {
    const r = sideFromTexts([{ source: "t.yaml", display: "t.yaml", text }], ".");
    if (!r.side) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
    return r.side;
  };
  const mixed = diffContracts(sideOf(tool(5000, 5)), sideOf(tool(8000, 3)), EMPTY_DIFF_CONFIG);
  /** The level of each change row, top to bottom: `file:line:col: level …` lines, or `| level |` table rows. */
  const rowLevels = (report: string): string[] =>
    report.split("\n").flatMap((l) => /^t\.yaml:\d+:\d+: (\w+) /.exec(l)?.slice(1) ?? /^\| (breaking|undecided|warning|info) \|/.exec(l)?.slice(1) ?? []);

  it.each(["text", "markdown"] as const)("%s: breaking rows come first, whatever their place in the files", (format) => {
    expect(mixed.changes.map((c) => `${c.line} ${c.level}`)).toEqual(["5 info", "6 breaking"]);
    expect(rowLevels(formatReport(mixed, format))).toEqual(["breaking", "info"]);
  });
});
