/**
 * Chaos for the second attack pass, on the compiler's side (docs/robustness.md,
 * "A second attack pass"): patterns the ReDoS checker cannot read as written
 * are refused on every road a pattern takes in, `then` and `__proto__` never
 * reach a contract through either import, and no name or enum value breaks
 * out of `toolc diff`'s Markdown or workflow-command output. Fixed seed,
 * run counts from config.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { EMPTY_DIFF_CONFIG } from "../../generator/diff/config.js";
import { formatReport } from "../../generator/diff/format.js";
import { diffContracts } from "../../generator/diff/index.js";
import { sideFromTexts } from "../../generator/diff/sources.js";
import { importContracts } from "../../generator/import/index.js";
import { patternMessage, patternProblem } from "../../generator/normalize/patterns.js";
import { importSpec, OK_OBJECT, openapi30 } from "../import/openapi/helpers.js";
import { compileYaml, toolYaml } from "../runtime/yaml-contracts.js";
import { CHAOS_SEED, runs, timeoutFor } from "./config.js";

const work = mkdtempSync(join(tmpdir(), "toolc-chaos-compiler-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Inline modifiers exist only where this Node's RegExp accepts them (Node 24 on); elsewhere the pattern is invalid (TC003). */
const MODIFIERS = (() => {
  try {
    new RegExp("(?i:a)", "u");
    return true;
  } catch {
    return false;
  }
})();

const groupName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,5}$/);
const atom = fc.constantFrom("[a-z]", "[a-z0-9]", "\\d", "\\w", "x", "[^,]", ".", "[A-Z_]");

/**
 * Patterns whose ambiguity (a quantifier over a quantifier, or a repeated
 * backreference to a repeated group) sits inside a construct redos-detector
 * cannot parse as written: a named group, `\k<name>`, an inline modifier.
 * One of each construct per run, around random atoms, names and ends.
 */
const unreadable = fc.tuple(groupName, groupName, atom, fc.stringMatching(/^[a-z-]{0,3}$/), fc.constantFrom("", "!", "z")).map(([a, other, x, prefix, suffix]) => {
  const b = other === a ? `${a}0` : other;
  const cores = [`(?<${a}>${x}+)+`, `(?<${a}>${x}*)*`, `(?<${a}>(?<${b}>${x}+)+)`, `(?<${a}>${x}+)\\k<${a}>+`];
  if (MODIFIERS) cores.push(`(?i:${x}+)+`, `(?-i:(?<${a}>${x}+))*`);
  return cores.map((core) => `^${prefix}${core}${suffix}$`);
});

/** The 1-based line and column where `needle` first occurs in `text` at or after the line that starts with `anchor`. */
function locate(text: string, anchor: string, needle: string): { line: number; col: number } {
  const lines = text.split("\n");
  const from = lines.findIndex((l) => l.trimStart().startsWith(anchor));
  for (let i = Math.max(0, from); i < lines.length; i++) {
    const col = lines[i]!.indexOf(needle);
    if (col >= 0) return { line: i + 1, col: col + 1 };
  }
  throw new Error(`case setup: ${needle} not found after ${anchor}`);
}

/** The one error toolc gives for `files`, which must be TC035 at `where`. */
function expectRefusedAt(files: Record<string, string>, where: { file: string; anchor: string }, pattern: string): void {
  const quoted = JSON.stringify(pattern);
  const errors = compileYaml(files).diagnostics.filter((d) => d.severity === "error");
  const { line, col } = locate(files[where.file]!, where.anchor, quoted);
  expect(errors.map((e) => `${e.file}:${e.line}:${e.col} ${e.code}`)).toEqual([`${where.file}:${line}:${col} TC035`]);
  expect(errors[0]!.message).toContain(`pattern ${quoted}`);
}

describe("chaos: patterns the ReDoS checker cannot read as written", () => {
  const n = runs(200, 5);
  it(`are refused (TC035, at the pattern) in input, in named types, under propertyNames, and by both imports (${n} runs of each construct)`, async () => {
    await fc.assert(
      fc.asyncProperty(unreadable, async (patterns) => {
        for (const pattern of patterns) await expectRefusedEverywhere(pattern);
      }),
      { numRuns: n, seed: CHAOS_SEED },
    );
  }, timeoutFor(n, 30_000));
});

/** `pattern` refused on every road a pattern takes in: a tool's input, a named type, `propertyNames`, and both imports. */
async function expectRefusedEverywhere(pattern: string): Promise<void> {
  const quoted = JSON.stringify(pattern);
  const input = (props: string) => toolYaml("t", `effect: read\ninput:\n  type: object\n  properties:\n${props}\noutput: { type: object }\n`);
  expectRefusedAt({ "t.yaml": input(`    q: { type: string, maxLength: 64, pattern: ${quoted} }`) }, { file: "t.yaml", anchor: "q:" }, pattern);
  const types = `types:\n  Word: { type: string, maxLength: 64, pattern: ${quoted} }\n`;
  expectRefusedAt({ "types.yaml": types, "t.yaml": input('    w: { $ref: "types.yaml#/Word" }') }, { file: "types.yaml", anchor: "Word:" }, pattern);
  const keys = `    m:\n      type: object\n      maxProperties: 4\n      additionalProperties: { type: string, maxLength: 5 }\n      propertyNames: { type: string, maxLength: 40, pattern: ${quoted} }`;
  expectRefusedAt({ "t.yaml": input(keys) }, { file: "t.yaml", anchor: "propertyNames:" }, pattern);
  // What the imports report is the same check's reason (they write YAML, so they have no TC code of their own).
  const problem = patternProblem(pattern);
  expect(problem).toBeDefined();
  const message = patternMessage(pattern, problem!);
  expect(importMcp(pattern)).toEqual({ written: ["good.yaml"], errors: [`/tools/1/inputSchema/properties/q/pattern: ${message}`] });
  expect(await importOpenApiPattern(pattern)).toEqual({ tools: ["list_items"], errors: [`/paths/~1search/post/requestBody/content/application~1json/schema/properties/q/pattern: ${message}`] });
}

/** `toolc import` of a tools/list document whose second tool has `pattern`: what it wrote, and its errors. */
function importMcp(pattern: string): { written: readonly string[]; errors: string[] } {
  const dir = mkdtempSync(join(work, "mcp-"));
  const tools = [
    { name: "good", inputSchema: { type: "object" } },
    { name: "bad", inputSchema: { type: "object", properties: { q: { type: "string", maxLength: 64, pattern } } } },
  ];
  writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools }));
  const result = importContracts({ source: "tools.json", out: "definitions", cwd: dir });
  return { written: result.written, errors: result.problems.filter((p) => p.severity === "error").map((p) => `${p.pointer}: ${p.message}`) };
}

/** `toolc import openapi` of a description whose search operation's body has `pattern`: the tools it wrote, and its errors. */
async function importOpenApiPattern(pattern: string): Promise<{ tools: string[]; errors: string[] }> {
  const body = { content: { "application/json": { schema: { type: "object", properties: { q: { type: "string", maxLength: 64, pattern } } } } } };
  const paths = {
    "/items": { get: { operationId: "list_items", responses: { 200: OK_OBJECT } } },
    "/search": { post: { operationId: "search", requestBody: body, responses: { 200: OK_OBJECT } } },
  };
  const { contracts, result } = await importSpec(openapi30(paths), undefined, {}, mkdtempSync(join(work, "openapi-")));
  return { tools: Object.keys(contracts), errors: result.problems.filter((p) => p.severity === "error").map((p) => `${p.pointer}: ${p.message}`) };
}

const RESERVED = ["then", "__proto__"];

/** Tool names: the two `generate` refuses, `constructor` (which it takes as an ordinary name), the names a rename picks, and plain ones. */
const toolNames = fc.uniqueArray(fc.oneof(fc.constantFrom("then", "__proto__", "constructor", "then_tool", "proto_tool", "then_tool_2"), fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/)), {
  minLength: 1,
  maxLength: 6,
  selector: (name) => name.toLowerCase(),
});

/** The contract files in `dir`, as compileYaml takes them. */
function definitionsIn(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith(".yaml")).map((f) => [f, readFileSync(join(dir, f), "utf8")]));
}

/** What the written contracts fail to compile with: nothing, for a rename to be worth anything. */
function compileErrors(files: Record<string, string>): string[] {
  return compileYaml(files).diagnostics.filter((d) => d.severity === "error").map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`);
}

describe("chaos: reserved tool names on import", () => {
  const n = runs(10, 20);
  it(`a tools/list import renames then and __proto__, with a warning each, keeps every other name, and what it writes compiles (${n} runs)`, () => {
    fc.assert(
      fc.property(toolNames, (names) => {
        const dir = mkdtempSync(join(work, "names-"));
        writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools: names.map((name) => ({ name, description: "A tool.", inputSchema: { type: "object" } })) }));
        const result = importContracts({ source: "tools.json", out: "definitions", cwd: dir });
        const written = result.written.map((f) => f.replace(/\.yaml$/, ""));
        expect(written).toHaveLength(names.length);
        expect(new Set(written.map((w) => w.toLowerCase())).size).toBe(names.length);
        names.forEach((name, i) => (RESERVED.includes(name) ? expect(written[i]).not.toBe(name) : expect(written[i]).toBe(name)));
        const renamed = names.flatMap((name, i) => (RESERVED.includes(name) ? [`/tools/${i}/name`] : []));
        expect(result.problems.filter((p) => p.message.startsWith("renamed from")).map((p) => `${p.severity} ${p.pointer}`)).toEqual(renamed.map((p) => `warning ${p}`));
        expect(compileErrors(definitionsIn(join(dir, "definitions")))).toEqual([]);
      }),
      { numRuns: n, seed: CHAOS_SEED },
    );
  }, timeoutFor(n, 500));

  const m = runs(100, 10);
  it(`an OpenAPI import never writes a tool named then or __proto__, and what it writes compiles (${m} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(toolNames, async (names) => {
        const paths = Object.fromEntries(names.map((name, i) => [`/p${i}`, { get: { operationId: name, responses: { 200: OK_OBJECT } } }]));
        const { dir, contracts } = await importSpec(openapi30(paths), undefined, {}, mkdtempSync(join(work, "openapi-names-")));
        const tools = Object.keys(contracts);
        expect(tools).toHaveLength(names.length);
        for (const reserved of RESERVED) expect(tools).not.toContain(reserved);
        expect(compileErrors(definitionsIn(join(dir, "definitions")))).toEqual([]);
      }),
      { numRuns: m, seed: CHAOS_SEED },
    );
  }, timeoutFor(m, 2_000));
});

/** Text built to break out: code spans, HTML, mentions, issue links, table borders, escapes, line breaks that start workflow commands. */
const hostileText = fc
  .array(fc.constantFrom("`", "``", "<", ">", "<img src=x>", "@", "@octocat", "#1", "::", "::error file=a.yaml::", "\n", "\r", "\r\n", "|", "\\", "%", "%0A", ",", "*", "_", "[", "](", "!", "&", "~", "a", "Z", "7", " ", "é"), { minLength: 1, maxLength: 10 })
  .map((parts) => parts.join(""));

/** One side of a diff: tool `t`, whose input has `property` and an enum of `values`. */
function side(property: string, values: readonly string[]) {
  const tool = {
    name: "t", version: 1, description: "t", effect: "read",
    input: { type: "object", properties: { [property]: { type: "string", maxLength: 9 }, kind: { enum: ["ok", ...values] } } },
    output: { type: "object" },
  };
  return sideFromTexts([{ source: "t.yaml", display: "t.yaml", text: JSON.stringify(tool) }], ".").side;
}

/** `cell` with its backslash escapes taken out: what is left is what Markdown reads as syntax. */
const unescaped = (cell: string): string => cell.replace(/\\[\s\S]/g, "");

/** Where a Markdown table row's cells end: `|` not escaped by a backslash. */
function cells(row: string): string[] {
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < row.length; i++) {
    if (row[i] === "\\") current += row[i]! + (row[++i] ?? "");
    else if (row[i] === "|") (out.push(current), (current = ""));
    else current += row[i];
  }
  return [...out, current];
}

/** The Actions toolkit's escapes undone. */
const unescapeData = (s: string): string => s.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");

describe("chaos: names and enum values in toolc diff's reports", () => {
  const n = runs(10, 50);
  const scenario = fc.record({
    removed: hostileText.filter((s) => s !== "kind"),
    added: hostileText.filter((s) => s !== "kind"),
    values: fc.uniqueArray(hostileText.filter((s) => s !== "ok"), { minLength: 1, maxLength: 3 }),
  }).filter(({ removed, added }) => removed !== added);

  it(`never open a code span, HTML, a mention or a workflow command (${n} runs)`, () => {
    fc.assert(
      fc.property(scenario, ({ removed, added, values }) => {
        const before = side(removed, values);
        const after = side(added, []);
        expect(before && after, "the hostile names compile").toBeTruthy();
        const result = diffContracts(before!, after!, EMPTY_DIFF_CONFIG);
        expect(result.changes.length).toBeGreaterThanOrEqual(2);

        const markdown = formatReport(result, "markdown").split("\n");
        const rows = markdown.filter((l) => l.startsWith("| ") && !l.startsWith("| level") && !l.startsWith("| ---"));
        expect(rows).toHaveLength(result.changes.length);
        for (const line of markdown) expect(line.startsWith("::")).toBe(false);
        for (const row of rows) {
          const [, level, rule, ...written] = cells(row);
          expect([level, rule, written.length]).toEqual([expect.any(String), expect.stringMatching(/^ `[a-z0-9-]+` $/), 4]);
          for (const cell of written) {
            const syntax = unescaped(cell);
            expect(syntax).not.toMatch(/[`<]/);
            expect(cell).not.toMatch(/@[\p{L}\p{N}_]/u);
            expect(cell).not.toMatch(/#\d/);
          }
        }

        const github = formatReport(result, "github").split("\n").filter((l) => l !== "");
        expect(github).toHaveLength(result.changes.length + 1);
        github.slice(0, -1).forEach((line, i) => {
          const match = /^::(error|warning|notice) file=t\.yaml,line=\d+,col=\d+,title=[^,:]*::(.*)$/.exec(line);
          expect(match, line).not.toBeNull();
          expect(match![2]).not.toMatch(/[\r\n]/);
          // The text survives whole: the escapes are exactly the toolkit's.
          expect(unescapeData(match![2]!)).toContain(result.changes[i]!.message);
        });
        expect(github.at(-1)).toMatch(/^toolc diff: /);
      }),
      { numRuns: n, seed: CHAOS_SEED },
    );
  });
});
