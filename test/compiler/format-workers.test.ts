/**
 * Large batches are formatted in worker threads: the text must be exactly
 * what prettier in the calling thread prints, and a failure must still
 * reach the caller.
 */
import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { compile } from "../../generator/pipeline/run.js";
import { formatFiles } from "../../generator/format/prettier.js";
import { ROOT } from "./helpers.js";

const saved = process.env.TOOLC_FORMAT_WORKERS;
afterEach(() => {
  if (saved === undefined) delete process.env.TOOLC_FORMAT_WORKERS;
  else process.env.TOOLC_FORMAT_WORKERS = saved;
});

describe("formatting in worker threads", () => {
  it("compiles the golden corpus to the same bytes with two workers as with none", async () => {
    process.env.TOOLC_FORMAT_WORKERS = "0";
    const inline = await compile("definitions", "generated", ROOT);
    process.env.TOOLC_FORMAT_WORKERS = "2";
    const pooled = await compile("definitions", "generated", ROOT);
    expect(pooled.files?.length).toBeGreaterThan(0);
    expect(pooled.files).toEqual(inline.files);
  });

  it("passes the consumer's options through", async () => {
    const file = { path: "tools/x.ts", text: "export const x = { a: 'b', c: [1,2,3] }", format: true };
    process.env.TOOLC_FORMAT_WORKERS = "0";
    const [inline] = await formatFiles([file], { singleQuote: true, semi: false, useTabs: true });
    process.env.TOOLC_FORMAT_WORKERS = "2";
    const [pooled] = await formatFiles([file], { singleQuote: true, semi: false, useTabs: true });
    expect(pooled.text).toBe(inline.text);
    expect(pooled.text).toContain("'b'");
  });

  it("rejects when prettier cannot parse a file", async () => {
    process.env.TOOLC_FORMAT_WORKERS = "2";
    const files = [
      { path: "a.ts", text: "export const a = 1;", format: true },
      { path: "b.ts", text: "export const = ;", format: true },
    ];
    await expect(formatFiles(files, {})).rejects.toThrow(/b\.ts|Expression expected|SyntaxError/);
  });
});
