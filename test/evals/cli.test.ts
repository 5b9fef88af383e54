/**
 * `toolc evals` as a user runs it, in-process through the CLI's entry: what it
 * says on success names the count of cases and tools in plain English, and a
 * contract with errors writes nothing, nor does a pack that cannot be written
 * whole.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyDemo, runCli } from "../compiler/helpers.js";

describe("toolc evals", () => {
  it("says how many cases it wrote for how many tools, and where", async () => {
    const dir = copyDemo();
    const { code, stdout, stderr } = await runCli(dir, ["evals"]);
    expect(stderr).not.toContain("error");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^toolc evals: \d+ cases for 4 tools written to evals\n$/);
    expect(readdirSync(join(dir, "evals"))).toContain("get_order.jsonl");
  });

  it("counts one tool as one tool", async () => {
    const dir = copyDemo();
    // search_orders is kept: get_order's view calls create_refund (ui.calls), so it cannot stand alone.
    for (const name of ["create_refund.yaml", "delete_customer.yaml", "get_order.yaml"]) rmSync(join(dir, "definitions", name));
    const { code, stdout } = await runCli(dir, ["evals", "--out", "pack"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^toolc evals: \d+ cases for 1 tool written to pack\n$/);
  });

  it("names the tools that got no case because their contracts have no examples (an imported API's have none)", async () => {
    const dir = copyDemo();
    const bare =
      "name: ping\nversion: 1\ndescription: Answers pong.\neffect: read\ninput: { type: object, additionalProperties: false }\noutput: { type: object, additionalProperties: false, properties: { pong: { type: boolean } } }\n";
    writeFileSync(join(dir, "definitions", "ping.yaml"), bare);
    const { code, stdout } = await runCli(dir, ["evals"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^toolc evals: \d+ cases for 4 of 5 tools written to evals\n/);
    expect(stdout).toContain("toolc evals: no cases for 1 tool without `examples` in their contracts (ping); add examples to test them (docs/agent-loop.md)\n");
    expect(readdirSync(join(dir, "evals"))).not.toContain("ping.jsonl");
  });

  it("writes nothing when a contract has errors, and says where", async () => {
    const dir = copyDemo();
    writeFileSync(join(dir, "definitions", "broken.yaml"), "name: broken\nversion: 1\n");
    const { code, stdout, stderr } = await runCli(dir, ["evals"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("definitions/broken.yaml");
    expect(stderr).toContain("toolc evals: the contracts have errors; nothing was written");
    expect(existsSync(join(dir, "evals"))).toBe(false);
  });

  it("writes the whole pack or nothing: a file that cannot be written leaves the folder as it was, with a located error", async () => {
    const dir = copyDemo();
    const pack = join(dir, "evals");
    mkdirSync(pack);
    writeFileSync(join(pack, "get_order.jsonl"), "an earlier pack\n");
    // A folder where the pack's last file goes: every file before it could be written.
    mkdirSync(join(pack, "promptfooconfig.yaml"));
    const { code, stdout, stderr } = await runCli(dir, ["evals"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/evals\/promptfooconfig\.yaml:1:1: error TC\d+: cannot write: a directory is in the way \(EISDIR\)\n/);
    expect(stderr).toContain("toolc evals: could not write the pack; nothing was changed\n");
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(pack).sort()).toEqual(["get_order.jsonl", "promptfooconfig.yaml"]);
    expect(readFileSync(join(pack, "get_order.jsonl"), "utf8")).toBe("an earlier pack\n");
    expect(readdirSync(dir).filter((name) => name.includes("staging"))).toEqual([]);
  });
});
