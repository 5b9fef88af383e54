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
import { collectAfter, collectGarbage, LARGE_STEP, MIN_GARBAGE_BYTES } from "../../generator/pipeline/collect-garbage.js";
import { LocalToolCompiler, type ToolOutcome } from "../../generator/pipeline/compile-tool.js";
import { contentOf, packedBytes, packedFile } from "../../generator/pipeline/packed-files.js";
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

async function compileAll(releaseAjvEvery: number, tools = toolTexts, collect: () => void = () => {}): Promise<{ outcomes: ToolOutcome[]; held: number }> {
  releaseSharedAjv();
  const compiler = new LocalToolCompiler({ releaseAjvEvery, collect });
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

  it("collects the garbage each time it starts the shared Ajv instances afresh, and only then", async () => {
    let collections = 0;
    await compileAll(4, toolTexts, () => collections++);
    // Twelve tools released every four: after the 4th and the 8th.
    expect(collections).toBe(Math.ceil(toolTexts.length / 4) - 1);
    collections = 0;
    await compileAll(Number.POSITIVE_INFINITY, toolTexts, () => collections++);
    expect(collections).toBe(0);
  });

  it("has a full collection to run in Node, which frees what nothing holds, and no `gc` global left behind", async () => {
    let held: object | undefined = { big: "x".repeat(1000) };
    const ref = new WeakRef(held);
    held = undefined;
    // A WeakRef's target is kept to the end of the job that made or read it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(collectGarbage()).toBe(true);
    expect(ref.deref()).toBeUndefined();
    expect("gc" in globalThis).toBe(false);
  });

  it("collects after a large step only when the heap grew by enough since the last collection to be worth one", () => {
    expect(collectGarbage()).toBe(true);
    // Nothing made since: no collection, however large the step.
    expect(collectAfter(LARGE_STEP * 10)).toBe(false);
    // A large array (held in V8's large-object space until a full collection) dropped at once: garbage enough.
    let garbage: number[] | undefined = new Array<number>(MIN_GARBAGE_BYTES / 8 + 1024).fill(0.5);
    expect(garbage.length).toBeGreaterThan(0);
    garbage = undefined;
    expect(collectAfter(LARGE_STEP - 1)).toBe(false);
    expect(collectAfter(LARGE_STEP)).toBe(true);
    expect(collectAfter(LARGE_STEP)).toBe(false);
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
    // Packing a packed file again hands it back as it is, without inflating its text.
    expect(packedFile(packed)).toBe(packed);
    // The write takes a packed file's bytes, no string made: the same bytes as its text's.
    expect(contentOf(packed)).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(contentOf(packed)).toString("utf8")).toBe(file.text);
    expect(contentOf(small)).toBe(small.text);
    expect(packedBytes(small)).toBeUndefined();
  });
});
