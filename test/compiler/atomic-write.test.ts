/**
 * Writes that cannot half-happen: when switching the output in fails part way
 * (a directory in the way), the output folder is left byte for byte as it
 * was, with no temp or staging files, and the error names the path in plain
 * words.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyDemo, runCli, snapshotTree } from "./helpers.js";

function addTool(dir: string, name: string): void {
  const getOrder = readFileSync(join(dir, "definitions/get_order.yaml"), "utf8");
  writeFileSync(join(dir, `definitions/${name}.yaml`), getOrder.replace(/^name: get_order$/m, `name: ${name}`));
}

describe("generate, when the file system refuses part of the write", () => {
  it("leaves the output folder exactly as it was, with no temp files, and says where and why", async () => {
    const dir = copyDemo();
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    // A second tool and a changed first one: new files to add, and existing ones (contracts.ts, index.ts) to change.
    addTool(dir, "zz_last_tool");
    writeFileSync(join(dir, "definitions/get_order.yaml"), readFileSync(join(dir, "definitions/get_order.yaml"), "utf8").replace("title: ", "title: Changed "));
    // One of the new files has a directory in its way, so its rename fails after others succeeded.
    mkdirSync(join(dir, "generated/validators/zz_last_tool.ts/inside"), { recursive: true });
    writeFileSync(join(dir, "generated/validators/zz_last_tool.ts/inside/keep.txt"), "mine\n");
    const before = snapshotTree(dir);
    const listing = readdirSync(dir).sort();

    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/generated\/validators\/zz_last_tool\.ts:1:1: error TC060: cannot write: .*(directory|in the way)/);
    expect(result.stderr).not.toContain("internal error");
    expect(snapshotTree(dir)).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(listing);
    expect(Object.keys(snapshotTree(dir)).filter((p) => /toolc-(tmp|staging)/.test(p))).toEqual([]);
  });

  it("switches everything in once nothing is in the way", async () => {
    const dir = copyDemo();
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    addTool(dir, "zz_last_tool");
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect((await runCli(dir, ["check"])).code).toBe(0);
    expect(readdirSync(dir).filter((name) => name.includes("toolc-staging"))).toEqual([]);
  });
});
