/**
 * The build cache must never change output: every cached run is compared
 * with a plain, uncached compile of the same inputs.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { compile, run } from "../../generator/pipeline/run.js";
import { copyDemo } from "../compiler/helpers.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const cacheDir = mkdtempSync(join(tmpdir(), "toolc-cache-test-"));
beforeAll(() => void (process.env.TOOLC_CACHE_DIR = cacheDir));
afterAll(() => {
  delete process.env.TOOLC_CACHE_DIR;
  rmSync(cacheDir, { recursive: true, force: true });
});

/** Generates through the cache, then asserts the folder equals a fresh uncached compile. */
async function expectSameAsUncached(dir: string, runFn = run, compileFn = compile): Promise<void> {
  const result = await runFn({ definitions: "definitions", out: "generated", mode: "generate", cwd: dir });
  expect(result.ok).toBe(true);
  const fresh = await compileFn("definitions", "generated", dir);
  expect(fresh.files).toBeDefined();
  for (const file of fresh.files ?? []) expect(readFileSync(join(dir, "generated", file.path), "utf8"), file.path).toBe(file.text);
  const check = await runFn({ definitions: "definitions", out: "generated", mode: "check", cwd: dir });
  expect(check.differences).toEqual([]);
  const uncached = await runFn({ definitions: "definitions", out: "generated", mode: "check", cwd: dir, cache: false });
  expect(uncached.differences).toEqual([]);
}

const edit = (dir: string, path: string, from: string | RegExp, to: string): void => {
  const full = join(dir, "definitions", path);
  const text = readFileSync(full, "utf8");
  const next = text.replace(from, to);
  expect(next).not.toBe(text);
  writeFileSync(full, next);
};

describe("build cache", () => {
  it("gives byte-identical output on a cold cache, a no-op run and an edited contract", async () => {
    const dir = copyDemo();
    await expectSameAsUncached(dir);
    await expectSameAsUncached(dir);
    edit(dir, "get_order.yaml", "Look up one customer's orders.", "Look up the orders of one customer.");
    await expectSameAsUncached(dir);
    expect(readFileSync(join(dir, "generated/contracts.ts"), "utf8")).toContain("Look up the orders of one customer.");
  });

  it("recompiles every tool when a referenced types file changes", async () => {
    const dir = copyDemo();
    await expectSameAsUncached(dir);
    edit(dir, "types.yaml", "enum: [pending, paid, cancelled]", "enum: [pending, paid, cancelled, refunded]");
    await expectSameAsUncached(dir);
    // The served schemas (contracts.ts, which bundles the type into each tool's) and the named type's validator, compiled once for all tools.
    expect(readFileSync(join(dir, "generated/contracts.ts"), "utf8")).toContain("refunded");
    expect(readFileSync(join(dir, "generated/validators/types/types.ts"), "utf8")).toContain("refunded");
  });

  it("gives the same bytes whatever prettier config or .editorconfig the consumer has", async () => {
    const dir = copyDemo();
    await expectSameAsUncached(dir);
    const before = readFileSync(join(dir, "generated/index.ts"), "utf8");
    writeFileSync(join(dir, ".prettierrc"), JSON.stringify({ semi: false, printWidth: 100, singleQuote: true }));
    writeFileSync(join(dir, ".editorconfig"), "root = true\n[*]\nindent_style = tab\n");
    await expectSameAsUncached(dir);
    expect(readFileSync(join(dir, "generated/index.ts"), "utf8")).toBe(before);
    // A formatted file that depends on the definitions alone is also the one committed (index.ts carries the run's settings).
    expect(readFileSync(join(dir, "generated/tools/get_order.ts"), "utf8")).toBe(readFileSync(join(ROOT, "generated/tools/get_order.ts"), "utf8"));
  });

  it("removes a deleted contract's files and its index entry", async () => {
    const dir = copyDemo();
    await expectSameAsUncached(dir);
    rmSync(join(dir, "definitions/delete_customer.yaml"));
    await expectSameAsUncached(dir);
    expect(readFileSync(join(dir, "generated/index.ts"), "utf8")).not.toContain("delete_customer");
  });

  it("reports a stale folder in check even when the inputs match the last run", async () => {
    const dir = copyDemo();
    await expectSameAsUncached(dir);
    writeFileSync(join(dir, "generated/tools/get_order.ts"), "// edited by hand\n");
    const check = await run({ definitions: "definitions", out: "generated", mode: "check", cwd: dir });
    expect(check.differences.map((d) => [d.path, d.status])).toEqual([["generated/tools/get_order.ts", "changed"]]);
  });

  it("does not reuse entries made by another toolc version", async () => {
    const dir = copyDemo();
    await expectSameAsUncached(dir);
    vi.resetModules();
    vi.doMock("../../generator/version.js", () => ({ TOOLC_VERSION: "99.0.0-test" }));
    const other = await import("../../generator/pipeline/run.js");
    await expectSameAsUncached(dir, other.run, other.compile);
    expect(readFileSync(join(dir, "generated/index.ts"), "utf8")).toContain("99.0.0-test");
    vi.doUnmock("../../generator/version.js");
    vi.resetModules();
  });
});

describe("one normalize for cached and uncached compiles", () => {
  /** A cached run after `change` reports exactly what an uncached compile of the same inputs reports. */
  async function expectSameDiagnostics(change: (dir: string) => void): Promise<void> {
    const dir = copyDemo();
    await expectSameAsUncached(dir);
    change(dir);
    const cached = await run({ definitions: "definitions", out: "generated", mode: "generate", cwd: dir });
    const fresh = await compile("definitions", "generated", dir);
    expect(cached.diagnostics).toEqual(fresh.diagnostics);
    expect(cached.ok).toBe(fresh.files !== undefined);
  }

  it("reports a duplicate tool name between a cached tool and a new one", async () => {
    await expectSameDiagnostics((dir) => {
      const text = readFileSync(join(dir, "definitions/get_order.yaml"), "utf8");
      writeFileSync(join(dir, "definitions/zz_copy.yaml"), text);
    });
  });

  it("reports a clash of generated names between a cached tool and an edited one", async () => {
    await expectSameDiagnostics((dir) => edit(dir, "delete_customer.yaml", /^name: delete_customer$/m, "name: get-order"));
  });

  it("keeps the warnings of unchanged tools and adds an edited tool's new ones", async () => {
    await expectSameDiagnostics((dir) => edit(dir, "delete_customer.yaml", /^name: delete_customer$/m, "name: delete.customer"));
  });

  it("reports a broken types file once, located in it", async () => {
    await expectSameDiagnostics((dir) => edit(dir, "types.yaml", "enum: [pending, paid, cancelled]", "enum: pending"));
  });
});

describe("compile workers", () => {
  it("give the same bytes and diagnostics as compiling in one thread (built CLI)", () => {
    const dir = copyDemo();
    const cli = join(ROOT, "bin/toolc.js");
    const generate = (workers: string, out: string) =>
      execFileSync(process.execPath, [cli, "generate", "--definitions", "definitions", "--out", out], {
        cwd: dir,
        env: { ...process.env, TOOLC_NO_CACHE: "1", TOOLC_WORKERS: workers },
        encoding: "utf8",
        stdio: "pipe",
      });
    generate("0", "one");
    generate("2", "two");
    const files = (out: string) => execFileSync("find", [out, "-type", "f"], { cwd: dir, encoding: "utf8" }).split("\n").filter(Boolean).map((f) => f.slice(out.length)).sort();
    expect(files("two")).toEqual(files("one"));
    for (const file of files("one")) expect(readFileSync(join(dir, "two", file), "utf8"), file).toBe(readFileSync(join(dir, "one", file), "utf8"));
  });
});

describe("a no-op run", () => {
  it("loads neither TypeScript, ts-morph nor Ajv: it only reads and hashes", () => {
    const dir = copyDemo();
    // Without a config file: reading one checks it with Ajv, on every run.
    rmSync(join(dir, "toolc.config.yaml"));
    const cli = join(ROOT, "bin/toolc.js");
    const env = { ...process.env, TOOLC_CACHE_DIR: mkdtempSync(join(tmpdir(), "toolc-noop-cache-")) };
    execFileSync(process.execPath, [cli, "generate", "--definitions", "definitions", "--out", "generated"], { cwd: dir, env });
    // The same run once more, from a script that reports which CommonJS packages it loaded.
    const probe = join(dir, "probe.mjs");
    writeFileSync(
      probe,
      `import { createRequire } from "node:module";
import { main } from ${JSON.stringify(join(ROOT, "dist/cli.js"))};
const code = await main(["generate", "--definitions", "definitions", "--out", "generated"]);
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((p) => /node_modules\\/(typescript|ts-morph|@ts-morph|ajv)\\//.test(p));
console.log(JSON.stringify({ code, loaded }));
`,
    );
    const lines = execFileSync(process.execPath, [probe], { cwd: dir, env, encoding: "utf8" }).trim().split("\n");
    expect(lines[0]).toMatch(/ 0 files written, /);
    expect(JSON.parse(lines.at(-1) ?? "{}")).toEqual({ code: 0, loaded: [] });
  });
});

describe("a long-lived caller", () => {
  it("gets fresh Ajv instances after each run, so compiled schemas do not pile up across runs", async () => {
    const { sharedAjv } = await import("../../generator/ajv-shared.js");
    const dir = copyDemo();
    const before = sharedAjv({ applyDefaults: true });
    const result = await run({ definitions: "definitions", out: "generated", mode: "generate", cwd: dir, cache: false });
    expect(result.ok).toBe(true);
    expect(sharedAjv({ applyDefaults: true })).not.toBe(before);
  });
});
