/**
 * Validators several tools share, written once (generator/emit/tool-code/shared.ts):
 * projects compiled through the real pipeline with their tools' code
 * grouped, written as JavaScript and called through the generated runtime's
 * executor; and the diff a tool added to such a project makes.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { EmittedFile } from "../../generator/ir.js";
import { compile } from "../../generator/pipeline/run.js";
import type { AnyToolContract, ToolValidators } from "../../generator/runtime/contract.js";
import type { ToolResult } from "../../generator/runtime/envelope.js";
import { toJs } from "../helpers/transpile.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** An order's input: a `ref` of the shape `ord_<digits>` and a page size 1 to 50 (default 10). */
const ORDER_INPUT = `input:
  type: object
  properties:
    ref: { type: string, pattern: "^ord_[0-9]+$" }
    size: { type: integer, minimum: 1, maximum: 50, default: 10 }
  required: [ref]
  additionalProperties: false`;
const ORDER_OUTPUT = `output:
  type: object
  properties: { status: { enum: [open, closed] } }
  required: [status]`;

/** A tool's definition; its input and output are the order's unless given. */
function tool(name: string, input = ORDER_INPUT, output = ORDER_OUTPUT): [string, string] {
  return [`${name}.yaml`, `name: ${name}\nversion: 1\ndescription: Tool ${name}.\neffect: read\n${input}\n${output}\n`];
}

/** A tool whose input and output are its own (a property named after it, or after `schemasOf`). */
const distinct = (name: string, schemasOf = name): [string, string] =>
  tool(
    name,
    `input: { type: object, properties: { ${schemasOf}_id: { type: string, minLength: 3 } }, required: [${schemasOf}_id] }`,
    `output: { type: object, properties: { ${schemasOf}_n: { type: integer } } }`,
  );

/** The definitions in a folder of their own, compiled with `toolsPerChunk` tools per group on average. */
async function compiled(tools: readonly [string, string][], toolsPerChunk: number): Promise<EmittedFile[]> {
  const definitions = mkdtempSync(join(tmpdir(), "toolc-shared-validators-defs-"));
  made.push(definitions);
  for (const [file, text] of tools) writeFileSync(join(definitions, file), text);
  const result = await compile(definitions, "generated", ROOT, { targets: { mcp: toolsPerChunk } });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return (result.files ?? []).filter((f) => f.root === undefined);
}

/** The files written as JavaScript into a folder of their own. */
function written(files: readonly EmittedFile[]): string {
  const dir = mkdtempSync(join(tmpdir(), "toolc-shared-validators-"));
  made.push(dir);
  writeFileSync(join(dir, "package.json"), '{"type":"module"}\n');
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  for (const file of files.filter((f) => f.path.endsWith(".ts"))) {
    const out = join(dir, file.path.replace(/\.ts$/, ".js"));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, toJs(file.text, file.path));
  }
  return dir;
}

type Execute = (contract: AnyToolContract, input: unknown, handler: (input: unknown) => unknown) => Promise<ToolResult<unknown, string>>;

/** The project written as JavaScript, its contracts and its runtime's executor. */
async function loaded(files: readonly EmittedFile[]): Promise<{ contracts: Record<string, AnyToolContract>; executeTool: Execute }> {
  const dir = written(files);
  const contracts = (await import(pathToFileURL(join(dir, "contracts.js")).href)) as Record<string, AnyToolContract>;
  const { executeTool } = (await import(pathToFileURL(join(dir, "runtime/executor.js")).href)) as { executeTool: Execute };
  return { contracts, executeTool };
}

const chunks = (files: readonly EmittedFile[]): Map<string, string> =>
  new Map(files.filter((f) => f.path.startsWith("chunks/")).map((f) => [f.path, f.text] as const));
const occurrences = (text: string, part: string): number => text.split(part).length - 1;

describe("tools whose validators are the same", () => {
  it("share one validator, written once, and each validates with its own error envelope", async () => {
    // Two tools with the order's schemas, one of their own; two tools to a group on average.
    const files = await compiled([tool("orders_get"), tool("orders_peek"), distinct("refunds_list")], 2);
    const code = chunks(files);
    const shared = [...code.keys()].filter((p) => /^chunks\/shared-\d+\.ts$/.test(p));
    expect(shared).toEqual(["chunks/shared-0.ts"]);
    // Each validator is one function of the shared module, and nothing of its text is anywhere else (no copy code is written).
    const sharedText = code.get("chunks/shared-0.ts")!;
    for (const marker of ['"^ord_[0-9]+$"', '"open"']) {
      expect(occurrences(sharedText, marker), marker).toBeGreaterThan(0);
      const elsewhere = [...code].filter(([path]) => path !== "chunks/shared-0.ts");
      expect(elsewhere.map(([path, text]) => [path, occurrences(text, marker)]).filter(([, n]) => n !== 0)).toEqual([]);
    }
    expect(occurrences(sharedText, "export function validateInput_")).toBe(1);
    expect(occurrences(sharedText, "export function validateOutput_")).toBe(1);

    const { contracts, executeTool } = await loaded(files);
    const [get, peek] = [contracts.ordersGetContract, contracts.ordersPeekContract].map((c) => c!);
    // Each tool has a validator of its own, made by the shared function: its `errors` are the tool's.
    const [a, b] = await Promise.all([get, peek].map((c) => (c.validators as () => Promise<ToolValidators>)()));
    expect(a!.validateInput).not.toBe(b!.validateInput);
    expect(a!.validateInput.name).toBe(b!.validateInput.name);
    for (const [contract, name] of [
      [get, "orders_get"],
      [peek, "orders_peek"],
    ] as const) {
      const seen: unknown[] = [];
      const ok = await executeTool(contract, { ref: "ord_12" }, (input) => (seen.push(input), { status: "open" }));
      expect(ok).toEqual({ ok: true, data: { status: "open" } });
      // The input validator applied the default.
      expect(seen).toEqual([{ ref: "ord_12", size: 10 }]);
      const bad = await executeTool(contract, { ref: "x", size: 99, extra: 1 }, () => ({ status: "open" }));
      expect(bad).toMatchObject({ ok: false, code: "INVALID_INPUT", tool: name, version: 1 });
      expect((bad as { issues: { path: string }[] }).issues.map((i) => i.path).sort()).toEqual(["extra", "ref", "size"]);
      const badOutput = await executeTool(contract, { ref: "ord_1" }, () => ({ status: "lost" }));
      expect(badOutput).toMatchObject({ ok: false, code: "INVALID_OUTPUT", tool: name });
    }
    // The tool of its own is unchanged: its validators are in its group's module.
    const own = await executeTool(contracts.refundsListContract!, {}, () => ({}));
    expect(own).toMatchObject({ ok: false, code: "INVALID_INPUT", tool: "refunds_list", issues: [{ path: "refunds_list_id" }] });
  });

  it("answer every call as each tool's own modules do", async () => {
    const tools = [tool("orders_get"), tool("orders_peek"), distinct("refunds_list")];
    const [shared, own] = await Promise.all([compiled(tools, 2), compiled(tools, 1)]);
    expect([...chunks(shared).keys()].some((p) => p.includes("/shared-"))).toBe(true);
    const calls: [string, unknown, unknown][] = [
      ["ordersGetContract", { ref: "ord_1", size: 3 }, { status: "closed" }],
      ["ordersGetContract", { ref: 1, size: 0 }, { status: "open" }],
      ["ordersPeekContract", null, {}],
      ["ordersPeekContract", { ref: "ord_2" }, { status: 1 }],
      ["refundsListContract", { refunds_list_id: "abc" }, { refunds_list_n: "x" }],
    ];
    const answers = async (files: readonly EmittedFile[]): Promise<unknown[]> => {
      const { contracts, executeTool } = await loaded(files);
      return Promise.all(calls.map(([name, input, output]) => executeTool(contracts[name]!, input, () => output)));
    };
    expect(await answers(shared)).toEqual(await answers(own));
  });

  it("are not shared where each tool's code is a module of its own", async () => {
    const files = await compiled([tool("orders_get"), tool("orders_peek")], 1);
    expect([...chunks(files).keys()].filter((p) => p.includes("shared"))).toEqual([]);
  });
});

describe("a tool added to a grouped project", () => {
  // Eleven tools, four to a group on average (three groups, and with one more tool too): two pairs share their validators.
  const base = (): [string, string][] => [
    tool("orders_get"),
    tool("orders_peek"),
    tool("carts_get", ORDER_INPUT.replace("ord_", "cart_"), ORDER_OUTPUT),
    tool("carts_peek", ORDER_INPUT.replace("ord_", "cart_"), ORDER_OUTPUT),
    ...["a", "b", "c", "d", "e", "f", "g"].map((n) => distinct(`tool_${n}`)),
  ];
  /** The chunks/ files that differ between two compiles, and those only one has. */
  const changed = (before: Map<string, string>, after: Map<string, string>): string[] =>
    [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p)).sort();
  /** The group module of a tool, from the contracts' loaders. */
  const groupOf = (files: readonly EmittedFile[], name: string): string => {
    const contracts = files.find((f) => f.path === "contracts.ts")!.text;
    const exportName = `${name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}Code`;
    const loader = new RegExp(`import\\("\\./(chunks/group-\\d+)\\.js"\\)\\.then\\(\\(m\\) => m\\.${exportName}\\(\\)\\)`).exec(contracts);
    return loader![1]!;
  };

  it("leaves the shared modules and the other groups as they were, byte for byte", async () => {
    const before = await compiled(base(), 4);
    const sharedBefore = [...chunks(before).keys()].filter((p) => p.includes("/shared-"));
    expect(sharedBefore.length).toBeGreaterThan(0);

    // A tool of its own: its group's module changes, nothing else (no copies modules: the runtime plans copies).
    const plain = await compiled([...base(), distinct("tool_new")], 4);
    const group = groupOf(plain, "tool_new");
    expect(changed(chunks(before), chunks(plain))).toEqual([`${group}.ts`]);

    // A tool using a validator already shared: the same.
    const sharing = await compiled([...base(), tool("orders_list")], 4);
    const its = groupOf(sharing, "orders_list");
    expect(changed(chunks(before), chunks(sharing))).toEqual([`${its}.ts`]);
  });

  it("that makes a validator shared moves it into a shared module, and changes the groups of the tools that use it", async () => {
    const before = await compiled(base(), 4);
    const after = await compiled([...base(), distinct("tool_a2", "tool_a")], 4);
    const users = [groupOf(after, "tool_a"), groupOf(after, "tool_a2")];
    const allowed = new Set([...users.map((g) => `${g}.ts`), ...[...chunks(after).keys()].filter((p) => p.includes("/shared-"))]);
    const diff = changed(chunks(before), chunks(after));
    expect(diff.filter((p) => !allowed.has(p))).toEqual([]);
    expect(diff.some((p) => p.includes("/shared-"))).toBe(true);
  });
});
