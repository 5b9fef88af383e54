/**
 * One plan, read once: a `toolc generate` run reads the definitions folder
 * once and normalizes each tool and the named types once, catalog and
 * changelog included (the catalog takes the compile's IR and texts instead
 * of reading and normalizing the definitions behind the pipeline's back).
 * Counted through the real CLI, in this thread, by wrapping the entry points
 * of reading (load/files.ts) and normalizing (normalize/tool.ts,
 * normalize/types-files.ts) with counters.
 */
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { copyDemo, runCli } from "../compiler/helpers.js";

const counts = vi.hoisted(() => ({ reads: [] as string[], tools: [] as string[], typeFiles: [] as string[][] }));

vi.mock("../../generator/load/files.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../generator/load/files.js")>();
  return {
    ...real,
    readDefinitionTexts: (dir: string, displayRoot: string) => {
      counts.reads.push(dir);
      return real.readDefinitionTexts(dir, displayRoot);
    },
  };
});

vi.mock("../../generator/normalize/tool.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../generator/normalize/tool.js")>();
  return {
    ...real,
    normalizeTool: (...args: Parameters<typeof real.normalizeTool>) => {
      counts.tools.push(args[0].display);
      return real.normalizeTool(...args);
    },
  };
});

vi.mock("../../generator/normalize/types-files.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../generator/normalize/types-files.js")>();
  return {
    ...real,
    normalizeTypeFiles: (...args: Parameters<typeof real.normalizeTypeFiles>) => {
      counts.typeFiles.push(args[0].map((f) => f.display));
      return real.normalizeTypeFiles(...args);
    },
  };
});

const TOOLS = ["definitions/create_refund.yaml", "definitions/delete_customer.yaml", "definitions/get_order.yaml", "definitions/search_orders.yaml"];

/** The demo with a catalog whose changelog compares against a folder of the same contracts (`v1/`), so no git is needed. */
function demoWithCatalog(): string {
  const dir = copyDemo();
  cpSync(join(dir, "definitions"), join(dir, "v1"), { recursive: true });
  writeFileSync(
    join(dir, "toolc.config.yaml"),
    ["tests: false", "mcp: { sdk: 2 }", "providers: false", "auth:", "  resource: https://mcp.example.com/mcp", "  authorizationServers: [https://auth.example.com/]", "  defaultScopes: [orders:read]", "docs:", "  out: docs/catalog", "  changelog: [v1]", ""].join("\n"),
  );
  return dir;
}

const headReads = (dir: string): string[] => counts.reads.filter((read) => read === join(dir, "definitions"));
const headTools = (): string[] => counts.tools.filter((file) => file.startsWith("definitions/")).sort();
const headTypes = (): string[][] => counts.typeFiles.filter((files) => files.some((file) => file.startsWith("definitions/")));

beforeEach(() => {
  counts.reads.length = 0;
  counts.tools.length = 0;
  counts.typeFiles.length = 0;
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("a generate run reads and normalizes the definitions once", () => {
  it("without a catalog", async () => {
    const dir = copyDemo();
    vi.stubEnv("TOOLC_NO_CACHE", "1");
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(headReads(dir)).toHaveLength(1);
    expect(headTools()).toEqual(TOOLS);
    expect(headTypes()).toEqual([["definitions/types.yaml"]]);
  });

  it("with a catalog and a changelog: the catalog's head is the compile's", async () => {
    const dir = demoWithCatalog();
    vi.stubEnv("TOOLC_NO_CACHE", "1");
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(headReads(dir)).toHaveLength(1);
    expect(headTools()).toEqual(TOOLS);
    expect(headTypes()).toEqual([["definitions/types.yaml"]]);
    // The changelog's base is read and normalized once too, as `toolc diff` reads it.
    expect(counts.tools.filter((file) => file.startsWith("v1/"))).toHaveLength(TOOLS.length);
  });

  it("through the build cache: a first run compiles each tool once, a second compiles none and reads once", async () => {
    const dir = demoWithCatalog();
    vi.stubEnv("TOOLC_NO_CACHE", "");
    vi.stubEnv("TOOLC_CACHE_DIR", join(dir, ".cache"));
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    expect(headReads(dir)).toHaveLength(1);
    expect(headTools()).toEqual(TOOLS);
    expect(headTypes()).toHaveLength(1);
    counts.reads.length = 0;
    counts.tools.length = 0;
    counts.typeFiles.length = 0;
    expect((await runCli(dir, ["check"])).code).toBe(0);
    expect(headReads(dir)).toHaveLength(1);
    expect(headTools()).toEqual([]);
    expect(headTypes()).toEqual([]);
  });
});
