/**
 * The done-when attacks against contracts this repository does not ship:
 * written as YAML, compiled by the real CLI into a scratch project, and used
 * only through the generated API (execute, createServer, createClient).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { TYPESCRIPTS } from "../helpers/typescripts.js";
import { tscOutput, typecheckFixture } from "../typecheck/fixtures.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Generated = any;

let api: Generated;

beforeAll(async () => {
  // Generated once by the global setup (heldOutProject in held-out-project.ts), which also type-checks its use.ts.
  api = await import(pathToFileURL(join(typecheckFixture("heldOut"), "generated/index.ts")).href);
}, 120_000);

async function connect(handlers: Record<string, unknown>): Promise<{ client: Client; typed: Generated }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "held-out", version: "1.0.0" });
  await Promise.all([api.createServer(handlers).connect(serverSide), client.connect(clientSide)]);
  return { client, typed: api.createClient(client) };
}

describe("constructor, toString, valueOf and hasOwnProperty are ordinary properties", () => {
  it("in input: required ones are missing from {}, and the handler never runs", async () => {
    let ran = 0;
    const result = await api.execute("proto_names", {}, { proto_names: () => (ran++, { hasOwnProperty: "h" }) });
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT" });
    expect(result.issues.map((i: { path: string }) => i.path)).toEqual(["constructor", "toString"]);
    expect(ran).toBe(0);
  });

  it("in defaults: a missing valueOf gets its default; a sent one is kept", async () => {
    const seen: unknown[] = [];
    const handlers = { proto_names: (input: Record<string, unknown>) => (seen.push({ ...input }), { hasOwnProperty: "h", valueOf: String(input["valueOf"]) }) };
    expect(await api.execute("proto_names", { constructor: "c", toString: "t" }, handlers)).toEqual({ ok: true, data: { hasOwnProperty: "h", valueOf: "dflt" } });
    expect(await api.execute("proto_names", { constructor: "c", toString: "t", valueOf: "v" }, handlers)).toMatchObject({ ok: true, data: { valueOf: "v" } });
    expect(seen).toEqual([{ constructor: "c", toString: "t", valueOf: "dflt" }, { constructor: "c", toString: "t", valueOf: "v" }]);
  });

  it("in output, over MCP: a missing hasOwnProperty never leaves the server, and the typed client agrees", async () => {
    const { client, typed } = await connect({ proto_names: () => ({ valueOf: "v" }) });
    const raw = await client.callTool({ name: "proto_names", arguments: { constructor: "c", toString: "t" } });
    expect(raw.isError).toBe(true);
    expect(await typed.proto_names({ constructor: "c", toString: "t" })).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
    await client.close();
  });

  it("a toJSON on the handler's output never reaches the wire", async () => {
    const output = { hasOwnProperty: "h" };
    Object.defineProperty(output, "toJSON", { value: () => ({ hasOwnProperty: "h", valueOf: "password=hunter2" }) });
    const { client, typed } = await connect({ proto_names: () => output });
    const raw = await client.callTool({ name: "proto_names", arguments: { constructor: "c", toString: "t" } });
    const text = (raw.content as { text: string }[])[0].text;
    expect(text).not.toContain("hunter2");
    expect(JSON.parse(text)).toEqual(raw.structuredContent);
    expect(await typed.proto_names({ constructor: "c", toString: "t" })).toEqual({ ok: true, data: { hasOwnProperty: "h" } });
    await client.close();
  });
});

describe("the generated types", () => {
  it.each(TYPESCRIPTS)("type inherited names as ordinary properties, under every strict flag, with TypeScript $version", ({ version }) => {
    // use.ts (USE_TS in held-out-project.ts) reads each inherited name as the declared string.
    expect(tscOutput("consumer", version, "held-out")).toBe("");
  });
});

describe("uniqueItems runs in time linear in the array", () => {
  const handlers = { unique_list: () => ({}), plain_list: () => ({}) };

  /**
   * How many element and property reads validating `tags` takes: the work,
   * counted rather than timed. Comparing every pair read each element about
   * n times; hashing reads it a small constant number of times.
   */
  async function reads(tags: unknown[]): Promise<{ valid: boolean; reads: number }> {
    const validators = await import(pathToFileURL(join(typecheckFixture("heldOut"), "generated/validators/unique_list.ts")).href);
    let count = 0;
    const watch = <T extends object>(target: T): T => new Proxy(target, { get: (t, k, r) => (count++, Reflect.get(t, k, r)), ownKeys: (t) => (count++, Reflect.ownKeys(t)) });
    const watched = watch(tags.map((tag) => (tag !== null && typeof tag === "object" ? watch(tag) : tag)));
    const valid = (validators.validateInput as (data: unknown) => boolean)({ tags: watched });
    return { valid, reads: count };
  }

  it.each([
    ["2,000 distinct strings", (n: number) => Array.from({ length: n }, (_, i) => `tag-${i}`)],
    ["2,000 distinct objects", (n: number) => Array.from({ length: n }, (_, i) => ({ id: i }))],
  ])("%s: validation reads each item a bounded number of times, and finds a duplicate at the end", async (_name, make) => {
    const n = 2_000;
    const tags = make(n);
    const unique = await reads(tags);
    expect(unique.valid).toBe(true);
    // Pairwise comparison would read about n² / 2 = 2,000,000 times here.
    expect(unique.reads).toBeLessThan(20 * n);
    const duplicated = await reads([...tags, tags[0]]);
    expect(duplicated.valid).toBe(false);
    expect(duplicated.reads).toBeLessThan(20 * n);
    // Through the executor, at a size where pairwise comparison took seconds: still accepted, and a late duplicate still found.
    const large = make(60_000);
    expect(await api.execute("unique_list", { tags: large }, handlers)).toEqual({ ok: true, data: {} });
    expect(await api.execute("unique_list", { tags: [...large, large[0]] }, handlers)).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: "tags" }] });
  });
});
