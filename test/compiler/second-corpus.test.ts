/**
 * A second set of contracts, unlike the demo: types files in a subfolder,
 * refs across three files, dotted and dashed tool names, tuples, object
 * consts, nullable enums, records, and descriptions that try to close a
 * comment. It must compile and regenerate identically. Its strict
 * type-check is one fixture of the matrix in typecheck.test.ts (every
 * TypeScript version, every strict flag, one tsc program per configuration),
 * not a tsc run of its own.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli, snapshotTree } from "./helpers.js";

describe("a second corpus", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolc-billing-"));
  cpSync(join(ROOT, "test/fixtures/billing"), join(dir, "definitions"), { recursive: true });
  // The generated code resolves ajv and the MCP SDK like a consumer's would: from node_modules.
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));

  it("compiles, with a portability warning for the dotted name", async () => {
    const result = await runCli(dir, ["generate"]);
    expect(result.stderr).toContain("warning TC012");
    expect(result.code).toBe(0);
  });

  it("regenerates byte-identically from scratch", async () => {
    const before = snapshotTree(join(dir, "generated"));
    rmSync(join(dir, "generated"), { recursive: true });
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(snapshotTree(join(dir, "generated"))).toEqual(before);
  });

  it("escapes comment closers in JSDoc but keeps them in the served schema", () => {
    const tree = snapshotTree(join(dir, "generated"));
    expect(tree["types/billing.ts"]).toContain("An invoice *\\/ with a comment closer");
    expect(tree["types/billing.ts"]).not.toMatch(/An invoice \*\/ with/);
    // The served schemas live in contracts.ts, as string literals, where a comment closer needs no escape.
    expect(tree["contracts.ts"]).toContain('description: "An id. Not a glob like a/*/b */ really"');
  });
});
