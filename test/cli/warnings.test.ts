/**
 * Warnings people can act on: a code seen more than three times is one line
 * (its first warning, the count, the next locations), `--verbose` prints
 * each, watch does not repeat what it printed last run, and the config's
 * `diagnostics.ignore` silences a warning code in a folder (never an error).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { printDiagnostics } from "../../generator/commands/diagnostics-output.js";
import { WARNING_CODES, warning, error, Codes } from "../../generator/diagnostics.js";
import type { Diagnostic } from "../../generator/ir.js";
import { projectWith, ROOT, runCli } from "../compiler/helpers.js";

/** A tool with `n` input strings and no maxLength: n TC036 warnings. */
function unbounded(name: string, n: number): string {
  const properties = Array.from({ length: n }, (_, i) => `    p${i}: { type: string }`).join("\n");
  return `name: ${name}\nversion: 1\ndescription: A tool.\neffect: read\ninput:\n  type: object\n  properties:\n${properties}\noutput: { type: object }\n`;
}

const tc036 = (text: string): string[] => text.split("\n").filter((line) => line.includes("TC036"));

function printed(diagnostics: readonly Diagnostic[], options: Parameters<typeof printDiagnostics>[2] = {}): string {
  let err = "";
  printDiagnostics(diagnostics, { out: () => undefined, err: (t) => (err += t) }, options);
  return err;
}

const at = (file: string, line: number) => ({ file, line, col: 3 });

describe("grouped warnings", () => {
  const many = [1, 2, 3, 4, 5].map((line) => warning(at("a.yaml", line), Codes.unboundedInput, `string ${line} has no maxLength`));
  const few = [warning(at("b.yaml", 1), Codes.openaiNotStrict, "not strict")];
  const errors = [6, 7, 8, 9].map((line) => error(at("a.yaml", line), Codes.invalidValue, `bad ${line}`));

  it("prints a code seen more than 3 times as one line with the count and the next locations; errors and rarer codes in full", () => {
    const text = printed([...many, ...few, ...errors]);
    expect(text.split("\n").filter(Boolean)).toEqual([
      "a.yaml:1:3: warning TC036: string 1 has no maxLength (and 4 more TC036 warnings: a.yaml:2:3, a.yaml:3:3, … 2 more; --verbose lists each)",
      "b.yaml:1:3: warning TC070: not strict",
      "a.yaml:6:3: error TC003: bad 6",
      "a.yaml:7:3: error TC003: bad 7",
      "a.yaml:8:3: error TC003: bad 8",
      "a.yaml:9:3: error TC003: bad 9",
    ]);
    expect(printed([...many, ...few], { verbose: true }).split("\n").filter(Boolean)).toHaveLength(6);
  });

  it("in watch, prints a code's warnings again only when they changed", () => {
    const memory = new Map<string, string>();
    expect(tc036(printed(many, { printed: memory }))).toHaveLength(1);
    const again = printed([...many, ...few], { printed: memory });
    expect(tc036(again)).toEqual(["toolc: warnings as in the last run, not repeated: TC036 ×5"]);
    expect(again).toContain("warning TC070: not strict");
    const fewer = printed(many.slice(1), { printed: memory });
    expect(tc036(fewer)[0]).toMatch(/^a\.yaml:2:3: warning TC036: .*\(and 3 more TC036 warnings/);
    expect(fewer).not.toContain("TC070");
  });
});

describe("generate and check", () => {
  it("group a code's warnings, and --verbose prints each", async () => {
    const dir = projectWith({ "t.yaml": unbounded("t", 6) });
    const grouped = await runCli(dir, ["check"]);
    expect(tc036(grouped.stderr)).toEqual([
      "definitions/t.yaml:8:17: warning TC036: input is a string with no `maxLength`; only the request size limits it, so set an upper bound (and 5 more TC036 warnings: definitions/t.yaml:9:17, definitions/t.yaml:10:17, … 3 more; --verbose lists each)",
    ]);
    expect(tc036((await runCli(dir, ["check", "--verbose"])).stderr)).toHaveLength(6);
  });
});

describe("diagnostics.ignore in toolc.config.yaml", () => {
  it("silences a warning code in the files its globs match, and nowhere else", async () => {
    const dir = projectWith({ "twilio/a.yaml": unbounded("a", 5), "twilio/deep/b.yaml": unbounded("b", 1), "own.yaml": unbounded("own", 1) });
    writeFileSync(join(dir, "toolc.config.yaml"), 'diagnostics:\n  ignore:\n    - code: TC036\n      paths: ["definitions/twilio/**"]\n');
    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(0);
    expect(tc036(result.stderr)).toEqual([expect.stringMatching(/^definitions\/own\.yaml:\d+:\d+: warning TC036/)]);
    // From a folder below the project, paths are still relative to the config file.
    mkdirSync(join(dir, "sub"));
    expect(tc036((await runCli(join(dir, "sub"), ["check"])).stderr)).toEqual([expect.stringMatching(/^\.\.\/definitions\/own\.yaml:.* TC036/)]);
  });

  it("refuses an error code, an unknown code and a malformed entry, located, and writes nothing", async () => {
    const dir = projectWith({ "t.yaml": unbounded("t", 1) });
    writeFileSync(
      join(dir, "toolc.config.yaml"),
      'diagnostics:\n  ignore:\n    - code: TC035\n      paths: ["definitions/**"]\n    - code: TC0366\n      paths: [x]\n    - code: TC036\n      path: [x]\n  silence: []\n',
    );
    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n").filter(Boolean)).toEqual([
      "toolc.config.yaml:9:3: error TC002: unknown key `silence` in `diagnostics`",
      "toolc.config.yaml:3:13: error TC003: TC035 is an error, and errors cannot be silenced; only warnings can (TC012, TC036, TC042, TC043, TC070, TC071, TC072, TC085, TC090)",
      "toolc.config.yaml:5:13: error TC003: `TC0366` is not a toolc diagnostic code; did you mean `TC036`?",
      "toolc.config.yaml:8:7: error TC002: unknown key `path` in an ignore entry; did you mean `paths`?",
      "toolc.config.yaml:7:7: error TC003: an ignore entry needs `paths`: a list of globs relative to the config file, e.g. [\"definitions/twilio/**\"]",
      "toolc: the config file has errors; nothing was written",
    ]);
  });

  it("offers editors the same warning codes the config accepts", () => {
    const schema = JSON.parse(readFileSync(join(ROOT, "schema/config.schema.json"), "utf8"));
    expect(schema.properties.diagnostics.properties.ignore.items.properties.code.enum).toEqual([...WARNING_CODES]);
  });
});
