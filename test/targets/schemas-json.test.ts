/**
 * Each served schema is written once (#42): `contracts.ts` is its one
 * source, and `schemas/<name>.json` is an opt-in copy (`schemasJson: true`)
 * for tools in other languages. Through the CLI on a copy of the demo: by
 * default the output has no schemas/ folder and the server lists the
 * contracts' own schema objects; with the key on, each file's `tool` is
 * exactly what tools/list serves (compared against the demo's generated
 * server over the real SDK); turning it off again removes the files; a bad
 * value is a located error that writes nothing.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDemoHandlers } from "../../demo/handlers.js";
import { contracts, createServer } from "../../generated/index.js";
import { copyDemo, runCli, snapshotTree } from "../compiler/helpers.js";
import { connectInMemory } from "../runtime/connect-sdk2.js";

function withConfig(...lines: string[]): string {
  const dir = copyDemo();
  writeFileSync(join(dir, "toolc.config.yaml"), ["tests: false", "mcp: { sdk: 2 }", ...lines, ""].join("\n"));
  return dir;
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** What the demo's generated server serves over tools/list, through the SDK's own client. */
async function listed(): Promise<{ name: string }[]> {
  const connection = await connectInMemory(createServer(createDemoHandlers().handlers));
  close = connection.close;
  return (await connection.client.listTools()).tools;
}

describe("served schemas, written once", () => {
  it("writes no schemas/ folder by default: the server lists the schemas contracts.ts holds", async () => {
    const dir = withConfig();
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    const tree = snapshotTree(join(dir, "generated"));
    expect(Object.keys(tree).filter((path) => path.endsWith(".json"))).toEqual([]);
    expect(tree["README.md"]).not.toContain("schemas/");
    for (const tool of await listed()) {
      const contract = contracts[tool.name as keyof typeof contracts];
      expect(JSON.stringify(tool), tool.name).toContain(JSON.stringify(contract.inputSchema));
      expect(JSON.stringify(tool), tool.name).toContain(JSON.stringify(contract.outputSchema));
    }
  });

  it("with schemasJson: true, writes each tool exactly as tools/list serves it; off again, removes the files", async () => {
    const dir = withConfig("schemasJson: true");
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    const served = await listed();
    expect(served.length).toBe(4);
    for (const tool of served) {
      const document = JSON.parse(readFileSync(join(dir, "generated/schemas", `${tool.name}.json`), "utf8")) as { tool: unknown };
      // Byte for byte, key order included: the file is the served entry.
      expect(JSON.stringify(document.tool), tool.name).toBe(JSON.stringify(tool));
    }
    expect(readFileSync(join(dir, "generated/README.md"), "utf8")).toContain("`schemas/<name>.json`");
    expect((await runCli(dir, ["check"])).code).toBe(0);

    writeFileSync(join(dir, "toolc.config.yaml"), "tests: false\nmcp: { sdk: 2 }\nschemasJson: false\n");
    const off = await runCli(dir, ["generate"]);
    expect(off.code).toBe(0);
    expect(off.stdout).toMatch(/ 4 removed /);
    expect(existsSync(join(dir, "generated/schemas"))).toBe(false);
  });

  it("refuses a value that is not true or false, located at the key, and writes nothing", async () => {
    const dir = withConfig("schemasJson: yes please");
    const result = await runCli(dir, ["generate"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/toolc\.config\.yaml:3:\d+: error TC003: .*schemasJson.* true or false/);
    expect(existsSync(join(dir, "generated"))).toBe(false);
  });
});
