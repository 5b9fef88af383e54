/**
 * The demo's view in TypeScript (definitions/views/orders.ts, typed by the
 * generated wrapper generated/views/get_order.ts): definitions/views/
 * orders.html holds what it compiles to (scripts/demo-view.ts, run by
 * `npm run generate`); it compiles under the strict flags of its tsconfig
 * (definitions/views/tsconfig.json); and a change to the contracts that the
 * view's code depends on fails its tsc, while `toolc diff` names the view.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDemoView, compileViewScript, VIEW_HTML } from "../../scripts/demo-view.js";
import { copyDemo, ROOT, runCli } from "../compiler/helpers.js";
import { generate } from "../contract-tests/project.js";
import { applyEdits, type Edits } from "../diff/helpers.js";

const run = promisify(execFile);
const TSC = join(ROOT, "node_modules/typescript-7/bin/tsc");
/** The extension's App, from the pinned release (test/apps-runtimes), as the view's project installs it. */
const EXT_APPS = join(ROOT, "test/apps-runtimes/node_modules/@modelcontextprotocol/ext-apps/dist/src/app.d.ts");
const VIEW = "the view of get_order (ui://get_order/view.html)";

/** tsc over definitions/views/orders.ts below `project` with the committed tsconfig: its error lines, none when it compiles. */
async function tscView(project: string, work: string): Promise<string[]> {
  const config = join(work, "tsconfig.view.json");
  writeFileSync(
    config,
    JSON.stringify({
      extends: join(project, "definitions/views/tsconfig.json"),
      compilerOptions: { paths: { "@modelcontextprotocol/ext-apps": [EXT_APPS] } },
      files: [join(project, "definitions/views/orders.ts")],
      include: [],
    }),
  );
  try {
    await run(process.execPath, [TSC, "--singleThreaded", "-p", config], { cwd: project });
    return [];
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error)
      .split("\n")
      .filter((line) => line.includes("error TS"));
  }
}

describe("definitions/views/orders.html", () => {
  it("is what orders.ts compiles to (npm run generate)", () => {
    expect(buildDemoView()).toBe(readFileSync(VIEW_HTML, "utf8"));
  });

  it("a value import (which would need a bundler) is refused, naming the file", () => {
    expect(() => compileViewScript('import { createGetOrderView } from "../../generated/views/get_order.js";\ncreateGetOrderView();\n', "views/x.ts")).toThrow(
      /^views\/x\.ts: the compiled view still imports or exports \(line 1 of its output\); a view without a bundler imports types only$/,
    );
    expect(() => compileViewScript('const s = "</script>";\nconsole.log(s);\n', "views/x.ts")).toThrow(/views\/x\.ts: .*"<\/script"/);
  });
});

describe("the demo's view, type-checked against the generated wrapper", () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "toolc-demo-view-"));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("compiles under its tsconfig's strict flags against the committed generated/ folder", async () => {
    expect(await tscView(ROOT, work)).toEqual([]);
  }, 120_000);
});

describe("a contract change the view depends on", () => {
  let dir: string;
  beforeAll(async () => {
    dir = copyDemo();
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    cpSync(join(dir, "definitions"), join(dir, "base"), { recursive: true });
    await generate(dir);
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Applies `edits` to the copy's definitions, regenerates, and gives the view's tsc errors and `toolc diff`'s text report; then restores the definitions. */
  async function afterEdit(edits: Edits): Promise<{ errors: string[]; diff: { code: number; stdout: string } }> {
    applyEdits(join(dir, "definitions"), edits);
    try {
      await generate(dir);
      const errors = await tscView(dir, dir);
      const diff = await runCli(dir, ["diff", "--base", "base", "--definitions", "definitions"]);
      return { errors, diff };
    } finally {
      rmSync(join(dir, "definitions"), { recursive: true });
      cpSync(join(dir, "base"), join(dir, "definitions"), { recursive: true });
    }
  }

  it("compiles before the change", async () => {
    expect(await tscView(dir, dir)).toEqual([]);
  }, 120_000);

  it("get_order's output drops customerId, which the view reads: tsc fails in orders.ts, and toolc diff names the view", async () => {
    const { errors, diff } = await afterEdit({
      "get_order.yaml": [
        ["    customerId: { type: string }\n", ""],
        ["required: [found, customerId, orders]", "required: [found, orders]"],
        ["output: { found: true, customerId: cus_1, orders:", "output: { found: true, orders:"],
      ],
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/definitions\/views\/orders\.ts\(\d+,\d+\): error TS2339: Property 'customerId' does not exist on type 'GetOrderOutput'/);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(new RegExp(`breaking .*get_order output.*customerId.*breaks ${escape(VIEW)}`));
  }, 240_000);

  it("an order status the view's switch does not handle: tsc fails in orders.ts, and toolc diff names the view", async () => {
    const { errors, diff } = await afterEdit({ "types.yaml": [["enum: [pending, paid, cancelled]", "enum: [pending, paid, cancelled, refunded]"]] });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /definitions\/views\/orders\.ts\(\d+,\d+\): error TS2345: Argument of type '"refunded"' is not assignable to parameter of type 'never'/,
    );
    expect(diff.stdout).toMatch(new RegExp(`get_order output.*breaks ${escape(VIEW)}`));
  }, 240_000);

  it("create_refund's output drops refundId, which the view shows after its call: tsc fails, and toolc diff names the view", async () => {
    const { errors, diff } = await afterEdit({
      "create_refund.yaml": [
        ["    refundId: { type: string }\n", ""],
        ["required: [refundId, status, amount, createdAt]", "required: [status, amount, createdAt]"],
        ["      refundId: re_1\n", ""],
      ],
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/definitions\/views\/orders\.ts\(\d+,\d+\): error TS2339: Property 'refundId' does not exist/);
    expect(diff.stdout).toMatch(new RegExp(`create_refund output.*breaks ${escape(VIEW)}`));
  }, 240_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
