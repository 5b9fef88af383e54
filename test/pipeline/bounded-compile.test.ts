/**
 * The compile's memory does not grow with the API (issue #42): the shared
 * Ajv instances are started afresh every so many tools, and each tool's
 * files are held deflated until the write. Neither changes a byte: the
 * files are the same with and without, read through the real compiler.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { releaseSharedAjv, sharedAjv, sharedAjvHeldSchemas } from "../../generator/ajv-shared.js";
import type { EmittedFile } from "../../generator/ir.js";
import { readDefinitionTexts, type DefinitionText } from "../../generator/load/files.js";
import { LocalToolCompiler, type ToolOutcome } from "../../generator/pipeline/compile-tool.js";
import { packedBytes, packedFile } from "../../generator/pipeline/packed-files.js";
import { compileOptionsOf, planFromOptions } from "../../generator/plan/index.js";
import { ROOT } from "../compiler/helpers.js";

afterEach(() => releaseSharedAjv());

const plan = planFromOptions({ definitions: "definitions", out: "generated", cwd: ROOT });
const texts = readDefinitionTexts(join(ROOT, "definitions"), ROOT)!;
const typeTexts = texts.filter((t) => t.source === "types.yaml");
/** The demo's tools, three times over under other sources (in the same folder, where get_order's view file is): twelve compiles of four shapes. */
const toolTexts: DefinitionText[] = [1, 2, 3].flatMap((round) =>
  texts.filter((t) => t.source !== "types.yaml").map((t) => ({ ...t, source: `${round}-${t.source}` })),
);

async function compileAll(releaseAjvEvery: number, tools = toolTexts): Promise<{ outcomes: ToolOutcome[]; held: number }> {
  releaseSharedAjv();
  const compiler = new LocalToolCompiler({ releaseAjvEvery });
  await compiler.classify([...typeTexts, ...tools]);
  const outcomes = await compiler.compile(typeTexts, tools, compileOptionsOf(plan));
  await compiler.close();
  return { outcomes, held: sharedAjvHeldSchemas() };
}

const filesOf = (outcomes: readonly ToolOutcome[]): { path: string; text: string }[] =>
  outcomes.flatMap((o) => ("failed" in o ? [] : o.files.map((f) => ({ path: f.path, text: f.text }))));

describe("a compile in bounded memory", () => {
  it("starts the shared Ajv instances afresh every so many tools, and writes the same files", async () => {
    const kept = await compileAll(Number.POSITIVE_INFINITY);
    const released = await compileAll(2);
    expect(filesOf(released.outcomes)).toEqual(filesOf(kept.outcomes));
    expect(kept.outcomes.filter((o) => "failed" in o)).toEqual([]);
    expect(filesOf(kept.outcomes).length).toBeGreaterThanOrEqual(toolTexts.length);
    // Released every two tools, the instances hold no more than compiling the last two alone leaves in them; kept, more.
    const lastTwo = await compileAll(Number.POSITIVE_INFINITY, toolTexts.slice(-2));
    expect(released.held).toBeLessThanOrEqual(lastTwo.held);
    expect(kept.held).toBeGreaterThan(released.held);
  });

  it("counts each schema object a shared instance compiled once, and none after a release", () => {
    releaseSharedAjv();
    expect(sharedAjvHeldSchemas()).toBe(0);
    const schema = { type: "object", properties: { id: { type: "string" } } };
    sharedAjv({ applyDefaults: true }).compile(schema);
    // The same object again is Ajv's cache hit, not a schema more; an equal copy is a new one; so is another instance's.
    sharedAjv({ applyDefaults: true }).compile(schema);
    expect(sharedAjvHeldSchemas()).toBe(1);
    sharedAjv({ applyDefaults: true }).compile(structuredClone(schema));
    sharedAjv({ applyDefaults: false }).compile(schema);
    expect(sharedAjvHeldSchemas()).toBe(3);
    releaseSharedAjv();
    expect(sharedAjvHeldSchemas()).toBe(0);
  });

  it("holds each compiled tool's larger files deflated, read back byte for byte", async () => {
    const { outcomes } = await compileAll(Number.POSITIVE_INFINITY);
    const files = outcomes.flatMap((o) => ("failed" in o ? [] : o.files));
    const large = files.filter((f) => f.text.length >= 1024);
    expect(large.length).toBeGreaterThan(0);
    for (const file of large) expect(Object.getOwnPropertyDescriptor(file, "text")?.get, file.path).toBeTypeOf("function");
  });

  it("a packed file reads, serializes and clones as the file it was", () => {
    const file: EmittedFile = { path: "tools/x.ts", root: "tests", text: `// é ✓ \u{1F600}\n${"export const x = 1;\n".repeat(200)}` };
    const packed = packedFile(file);
    expect(packed.text).toBe(file.text);
    expect(JSON.parse(JSON.stringify(packed))).toEqual(file);
    expect(structuredClone(packed)).toEqual(file);
    expect({ ...packed }).toEqual(file);
    // What it holds is the deflated bytes alone, not the 16 KB chunk zlib wrote them into.
    expect(packedBytes(packed)).toBeLessThan(file.text.length / 4);
    const small: EmittedFile = { path: "a.json", text: "{}\n" };
    expect(packedFile(small)).toBe(small);
    expect(packedBytes(small)).toBeUndefined();
  });
});
