/**
 * The typed view: a view written against the generated wrapper
 * (views/<tool>.ts over the extension's App) compiles under the strict
 * flags, and stops compiling when the contract changes the data it reads:
 * a dropped output property, a new enum value, or a call to a tool its
 * contract's `ui.calls` does not name.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../compiler/helpers.js";
import { generate } from "../contract-tests/project.js";
import { STRICTEST } from "../helpers/typescripts.js";
import { appsProject } from "./project.js";
import { ORDER_VIEW_SOURCE } from "./view-source.js";

const run = promisify(execFile);
const EXT_APPS = join(ROOT, "test/apps-runtimes/node_modules/@modelcontextprotocol/ext-apps/dist/src/app.d.ts");

let dir: string;
beforeAll(async () => {
  dir = await appsProject(2);
  mkdirSync(join(dir, "src"));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        ...STRICTEST,
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        lib: ["ES2023", "DOM"],
        types: [],
        skipLibCheck: true,
        noEmit: true,
        // The view's App from the pinned ext-apps (test/apps-runtimes).
        paths: { "@modelcontextprotocol/ext-apps": [EXT_APPS] },
      },
      include: ["generated/views", "src"],
    }),
  );
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** tsc over the project: its error lines (file(line,col): error TSnnnn: ...), none when it compiles. */
async function tsc(view = ORDER_VIEW_SOURCE): Promise<string[]> {
  writeFileSync(join(dir, "src/order-view.ts"), view);
  try {
    await run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: dir });
    return [];
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error)
      .split("\n")
      .filter((line) => line.includes("error TS"));
  }
}

/** Regenerates the project with `edit` applied to show_order.yaml, runs `check`, and restores the contract. */
async function withContract(edit: (text: string) => string, check: () => Promise<void>): Promise<void> {
  const path = join(dir, "definitions/show_order.yaml");
  const original = readFileSync(path, "utf8");
  writeFileSync(path, edit(original));
  try {
    await generate(dir);
    await check();
  } finally {
    writeFileSync(path, original);
    await generate(dir);
  }
}

describe("a view typed by its contract", () => {
  it("compiles under the strict flags against the generated wrapper", async () => {
    expect(await tsc()).toEqual([]);
  }, 120_000);

  it("fails tsc when the output drops a property the view reads", async () => {
    await withContract(
      (text) =>
        text.replace("    total: { type: integer, description: Cents. }\n", "").replace("required: [orderId, status, total]", "required: [orderId, status]"),
      async () => {
        const errors = await tsc();
        expect(errors.length).toBe(1);
        expect(errors[0]).toMatch(/^src\/order-view\.ts\(\d+,\d+\): error TS2339: Property 'total' does not exist/);
      },
    );
  }, 240_000);

  it("fails tsc when the output's enum gains a value the view does not handle", async () => {
    await withContract(
      (text) => text.replace("enum: [paid, shipped, refunded]", "enum: [paid, shipped, refunded, lost]"),
      async () => {
        const errors = await tsc();
        expect(errors.length).toBe(1);
        expect(errors[0]).toMatch(/^src\/order-view\.ts\(\d+,\d+\): error TS7053: .*"lost"/);
      },
    );
  }, 240_000);

  it("fails tsc when the view calls a tool its contract does not let it call, or with the wrong input", async () => {
    const other = await tsc(ORDER_VIEW_SOURCE.replace('view.callTool("refund_order"', 'view.callTool("show_order"'));
    expect(other.some((line) => line.includes("error TS2345") && line.includes('"show_order"'))).toBe(true);
    const wrong = await tsc(ORDER_VIEW_SOURCE.replace('{ orderId: "ord_1", amount }', '{ orderId: "ord_1", amount: String(amount) }'));
    expect(wrong.some((line) => line.includes("error TS2322"))).toBe(true);
  }, 120_000);
});
