/**
 * Definitions fuzzing: mutated YAML through the real pipeline (`run` in
 * generate mode, and the CLI's `main`). Properties: nothing throws; the CLI
 * never reports an internal error (exit 2); every error is a located
 * diagnostic inside its file; and when there are errors, the output folder
 * (seeded with sentinel files) is untouched.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../generator/cli.js";
import { run } from "../../generator/pipeline/run.js";
import { runs, timeoutFor } from "./config.js";
import { DEMO_VIEWS, mutatedDefinitions, SEEDS } from "./yaml-mutate.js";

const work = mkdtempSync(join(tmpdir(), "toolc-fuzz-defs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SENTINELS: Record<string, string> = { "index.ts": "// sentinel\n", "tools/keep.ts": "export {};\n", "notes.txt": "do not touch\n" };

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

/** A fresh definitions folder with `files`, and an out folder holding only the sentinels. */
function prepare(files: Record<string, string>): { defs: string; out: string } {
  rmSync(join(work, "definitions"), { recursive: true, force: true });
  rmSync(join(work, "out"), { recursive: true, force: true });
  const defs = join(work, "definitions");
  const out = join(work, "out");
  mkdirSync(defs);
  mkdirSync(join(out, "tools"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(defs, name), text);
  cpSync(DEMO_VIEWS, join(defs, "views"), { recursive: true });
  for (const [name, text] of Object.entries(SENTINELS)) writeFileSync(join(out, name), text);
  return { defs, out };
}

/** Problems with one diagnostic's location: the file exists and line/col fall inside it. */
function locationProblems(d: { file: string; line: number; col: number; code: string }, files: Record<string, string>): string[] {
  const name = relative("definitions", d.file);
  const text = files[name];
  if (d.file === "definitions") return d.line === 1 && d.col === 1 ? [] : ["folder diagnostic not at 1:1"];
  if (text === undefined) return [`diagnostic names unknown file ${d.file}`];
  const lines = text.split("\n");
  if (!Number.isInteger(d.line) || d.line < 1 || d.line > lines.length) return [`line ${d.line} outside 1..${lines.length} of ${name}`];
  const pastEnd = d.col > lines[d.line - 1].length + 1;
  if (!Number.isInteger(d.col) || d.col < 1 || pastEnd) return [`col ${d.col} outside line ${d.line} of ${name}`];
  return [];
}

const N = runs(4, 30);
const tally = new Map<string, number>();

describe("definitions fuzz", () => {
  it(
    `mutated YAML: located diagnostics, nothing written, no crash (${N} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(mutatedDefinitions, async (files) => {
          const { out } = prepare(files);
          const result = await run({ definitions: "definitions", out: "out", mode: "generate", cwd: work });
          const errors = result.diagnostics.filter((d) => d.severity === "error");
          tally.set(result.ok ? "compiled" : "refused", (tally.get(result.ok ? "compiled" : "refused") ?? 0) + 1);
          for (const d of result.diagnostics) {
            expect(locationProblems(d, files)).toEqual([]);
            expect(d.code).toMatch(/^TC\d{3}$/);
            expect(d.message.length).toBeGreaterThan(0);
          }
          if (!result.ok) {
            expect(errors.length).toBeGreaterThan(0);
            expect(snapshot(out)).toEqual(SENTINELS);
          }
        }),
        { numRuns: N },
      );
      console.log(`definitions fuzz outcomes: ${JSON.stringify(Object.fromEntries(tally))}`);
    },
    timeoutFor(N, 200),
  );

  it(
    `the CLI never reports an internal error on mutated YAML (${Math.ceil(N / 4)} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(mutatedDefinitions, async (files) => {
          const { defs, out } = prepare(files);
          let err = "";
          const code = await main(["generate", "--definitions", defs, "--out", out, "--no-tests"], {
            out: () => {},
            err: (t: string) => void (err += t),
          } as never);
          expect(err).not.toContain("internal error");
          expect([0, 1]).toContain(code);
          if (code === 1) expect(snapshot(out)).toEqual(SENTINELS);
        }),
        { numRuns: Math.ceil(N / 4) },
      );
    },
    timeoutFor(N, 200),
  );

  // Mutants the fuzzer found, kept so they are checked on every run, not only when a random seed hits them.
  it.each([
    ["an unresolved YAML alias", "name: a\nx: *missing\n"],
    ["text after a failed block scalar", "  a: 1\nb: >-\n  xx\n  yy\nc: 1\n"],
  ])("found mutant: %s is a located diagnostic", async (_what, text) => {
    const files = { ...SEEDS, "found.yaml": text };
    const { out } = prepare(files);
    const result = await run({ definitions: "definitions", out: "out", mode: "generate", cwd: work });
    expect(result.ok).toBe(false);
    for (const d of result.diagnostics) expect(locationProblems(d, files)).toEqual([]);
    // One syntax error per file: the parser's cascade after the first one is not the user's mistake.
    expect(result.diagnostics.filter((d) => d.code === "TC001" && d.file.endsWith("found.yaml"))).toHaveLength(1);
    expect(snapshot(out)).toEqual(SENTINELS);
  });

  it("the seeds compile, so mutations start from valid contracts", async () => {
    prepare(SEEDS);
    const result = await run({ definitions: "definitions", out: "out", mode: "check", cwd: work });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });
});
