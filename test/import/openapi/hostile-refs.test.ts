/**
 * `toolc import openapi` against descriptions that try to make it read what
 * it should not (issue #33 H1, M5): `$ref`s and redirects to files on this
 * machine, to loopback and to internal addresses; a local description that
 * references files outside its folder; a YAML alias bomb. Each is an error at
 * the `$ref` (or the hop) that asked, and nothing is written. The servers are
 * on loopback, started here.
 */
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressClass } from "../../../generator/import/openapi/addresses.js";
import { parseText } from "../../../generator/import/openapi/documents.js";
import { MAX_CONTRACT_BYTES } from "../../../generator/import/openapi/write.js";
import { importSpec, OK_OBJECT, openapi30, type Imported } from "./helpers.js";

const SECRET = "TOOLC_SECRET_MARKER_4711";

/** A description whose one operation answers the schema at `ref`. */
function describing(ref: string): string {
  return [
    "openapi: 3.1.0",
    "info: { title: Hostile API, version: '1' }",
    "paths:",
    "  /a:",
    "    get:",
    "      operationId: getA",
    "      responses:",
    "        '200':",
    "          description: ok",
    "          content:",
    "            application/json:",
    `              schema: { $ref: ${JSON.stringify(ref)} }`,
    "",
  ].join("\n");
}

const THING = "type: object\nproperties:\n  name: { type: string }\n";

let server: Server;
let origin: string;
let port: number;
/** Paths the server was asked for. */
const asked: string[] = [];
/** What the server answers per path: a body, or a redirect. */
const routes = new Map<string, { body: string } | { redirect: string }>();

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? "");
    const route = routes.get(req.url ?? "");
    if (route === undefined) return void res.writeHead(404).end();
    if ("redirect" in route) return void res.writeHead(302, { location: route.redirect }).end();
    res.writeHead(200, { "content-type": "application/yaml" }).end(route.body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  routes.set("/thing.yaml", { body: THING });
  routes.set("/secret.yaml", { body: `type: object\ndescription: ${SECRET}\n` });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function expectRefused(imported: Imported, pointer: string, message: RegExp): void {
  const errors = imported.result.problems.filter((p) => p.severity === "error");
  expect(errors).toEqual([expect.objectContaining({ pointer, message: expect.stringMatching(message) })]);
  expect(imported.result.aborted).toBe(true);
  expect(imported.contracts).toEqual({});
  expect(existsSync(join(imported.dir, "openapi-handlers.ts"))).toBe(false);
}

const REF = "/paths/~1a/get/responses/200/content/application~1json/schema/$ref";

describe("a description read from a URL", () => {
  it("still reads its $refs to other public (here: the named loopback) documents", async () => {
    routes.set("/ok.yaml", { body: describing("thing.yaml") });
    const imported = await importSpec(`${origin}/ok.yaml`);
    expect(imported.messages).toEqual([]);
    expect(imported.contracts.getA!.output).toEqual({ type: "object", properties: { name: { type: "string" } }, additionalProperties: true });
  });

  it.each([
    { name: "a file: URL", ref: () => pathToFileURL(secretFile()).href },
    { name: "the process's working directory through /proc", ref: () => "file:///proc/self/cwd/.env" },
    { name: "a path on this machine, by file: with a host", ref: () => `file://localhost${secretFile()}` },
  ])("never reads $name", async ({ ref }) => {
    routes.set("/file-ref.yaml", { body: describing(ref()) });
    const imported = await importSpec(`${origin}/file-ref.yaml`);
    expectRefused(imported, REF, /refused: a description read from a URL never reads files on this machine/);
    expect(JSON.stringify(imported.result)).not.toContain(SECRET);
  });

  it.each([
    { name: "an IPv4-mapped loopback address", host: () => `[::ffff:127.0.0.1]:${port}`, why: /internal or special-purpose/ },
    { name: "an IPv4-mapped address in hex", host: () => `[::ffff:7f00:1]:${port}`, why: /internal or special-purpose/ },
    { name: "a private address", host: () => "10.0.0.1", why: /internal or special-purpose/ },
    { name: "the cloud metadata address", host: () => "169.254.169.254", why: /internal or special-purpose/ },
    { name: "the unspecified address", host: () => `0.0.0.0:${port}`, why: /internal or special-purpose/ },
    { name: "a unique-local IPv6 address", host: () => "[fd00::1]", why: /internal or special-purpose/ },
  ])("refuses a reference to $name, even from a loopback description", async ({ host, why }) => {
    routes.set("/internal-ref.yaml", { body: describing(`http://${host()}/secret.yaml`) });
    asked.length = 0;
    const imported = await importSpec(`${origin}/internal-ref.yaml`);
    expectRefused(imported, REF, why);
    expect(asked).toEqual(["/internal-ref.yaml"]);
  });

  it("checks every redirect hop: one to an IPv4-mapped address and one to a file are refused at that hop", async () => {
    routes.set("/hop1", { redirect: "/hop2" });
    routes.set("/hop2", { redirect: `http://[::ffff:127.0.0.1]:${port}/secret.yaml` });
    routes.set("/via-redirect.yaml", { body: describing("hop1") });
    const imported = await importSpec(`${origin}/via-redirect.yaml`);
    expectRefused(imported, REF, /redirect 2 \(http:\/\/\[::ffff:7f00:1\]:\d+\/secret\.yaml\): refused: .*internal or special-purpose/);
    routes.set("/to-file", { redirect: pathToFileURL(secretFile()).href });
    routes.set("/via-file-redirect.yaml", { body: describing("to-file") });
    expectRefused(await importSpec(`${origin}/via-file-redirect.yaml`), REF, /redirect 1 \(file:.*\): refused: file: URLs are not read/);
  });

  it("follows at most 5 redirects", async () => {
    for (let i = 0; i < 8; i++) routes.set(`/loop${i}`, { redirect: `/loop${i + 1}` });
    routes.set("/loop.yaml", { body: describing("loop0") });
    expectRefused(await importSpec(`${origin}/loop.yaml`), REF, /redirect 5 .*more than 5 redirects/);
  });

  it("the description itself, redirected to an internal address, is refused", async () => {
    routes.set("/moved.yaml", { redirect: "http://[::ffff:127.0.0.1]/api.yaml" });
    const imported = await importSpec(`${origin}/moved.yaml`);
    expectRefused(imported, "", /^cannot read the API description: redirect 1 .*refused/);
  });
});

let outside: string;
function secretFile(): string {
  outside ??= mkdtempSync(join(tmpdir(), "toolc-outside-"));
  const file = join(outside, "secret.yaml");
  writeFileSync(file, `type: object\ndescription: ${SECRET}\n`);
  return file;
}

describe("a local description", () => {
  function project(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), "toolc-local-refs-"));
    mkdirSync(join(dir, "api"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, "api", name), text);
    return dir;
  }

  it("reads files in its folder", async () => {
    const dir = project({ "api.yaml": describing("schemas/thing.yaml") });
    mkdirSync(join(dir, "api/schemas"));
    writeFileSync(join(dir, "api/schemas/thing.yaml"), THING);
    const imported = await importSpec(join(dir, "api/api.yaml"), undefined, {}, dir);
    expect(imported.messages).toEqual([]);
    expect(Object.keys(imported.contracts)).toEqual(["getA"]);
  });

  it("refuses a file outside its folder, by a relative path, an absolute one, or a symbolic link; --allow-ref-outside reads it", async () => {
    const dir = project({ "api.yaml": describing("../common.yaml") });
    writeFileSync(join(dir, "common.yaml"), THING);
    expectRefused(await importSpec(join(dir, "api/api.yaml"), undefined, {}, dir), REF, /refused: .*common\.yaml is outside the description's folder .*--allow-ref-outside/);
    const allowed = await importSpec(join(dir, "api/api.yaml"), undefined, { allowRefOutside: true }, dir);
    expect(allowed.messages).toEqual([]);
    expect(Object.keys(allowed.contracts)).toEqual(["getA"]);

    const absolute = project({ "api.yaml": describing(pathToFileURL(secretFile()).href) });
    expectRefused(await importSpec(join(absolute, "api/api.yaml"), undefined, {}, absolute), REF, /is outside the description's folder/);

    const linked = project({ "api.yaml": describing("linked.yaml") });
    symlinkSync(secretFile(), join(linked, "api/linked.yaml"));
    expectRefused(await importSpec(join(linked, "api/api.yaml"), undefined, {}, linked), REF, /is outside the description's folder/);
  });

  it("refuses http $refs to loopback (by address or by a name that resolves there) and to internal addresses", async () => {
    for (const host of [`127.0.0.1:${port}`, `[::1]:${port}`, `localhost:${port}`, "192.168.1.1"]) {
      const dir = project({ "api.yaml": describing(`http://${host}/thing.yaml`) });
      asked.length = 0;
      expectRefused(await importSpec(join(dir, "api/api.yaml"), undefined, {}, dir), REF, /refused: .*(loopback|internal)/);
      expect(asked).toEqual([]);
    }
  });
});

describe("YAML aliases", () => {
  function bomb(levels: number, width: number): string {
    const lines = [`a0: &a0 [${Array(width).fill("xxxxxxxx").join(", ")}]`];
    for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array(width).fill(`*a${i - 1}`).join(", ")}]`);
    return lines.join("\n");
  }

  it("a description whose aliases would expand a kilobyte into megabytes is refused at the description, and nothing is written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolc-bomb-"));
    const text = `${describing("#/components/schemas/Thing")}components:\n  schemas:\n    Thing:\n      type: object\n      example:\n${bomb(6, 10)
      .split("\n")
      .map((l) => `        ${l}`)
      .join("\n")}\n`;
    expect(text.length).toBeLessThan(1100);
    writeFileSync(join(dir, "api.yaml"), text);
    const imported = await importSpec(join(dir, "api.yaml"), undefined, {}, dir);
    expectRefused(imported, "", /^cannot read the API description: .*alias/i);
  });

  it("few aliases that still expand far beyond the text are refused by the measured size", () => {
    // One 20 KB string used 99 times: under the alias limit (it counts aliases, not their size), expanding 20 KB into 2 MB.
    const text = `a: &a ${"x".repeat(20_000)}\nb: [${Array(99).fill("*a").join(", ")}]\n`;
    expect(() => parseText(text)).toThrow(/aliases expand \d+ bytes to more than \d+/);
  });

  it("a few aliases of ordinary size read as YAML always did", () => {
    expect(parseText("a: &x { type: string }\nb: *x\nc: *x\n")).toEqual({ a: { type: "string" }, b: { type: "string" }, c: { type: "string" } });
  });
});

describe("address classes", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.200.0.9", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "internal"],
    ["::ffff:8.8.8.8", "internal"],
    ["::", "internal"],
    ["0.0.0.0", "internal"],
    ["10.1.2.3", "internal"],
    ["172.31.0.1", "internal"],
    ["192.168.0.1", "internal"],
    ["100.64.0.1", "internal"],
    ["169.254.169.254", "internal"],
    ["fe80::1", "internal"],
    ["fd12::1", "internal"],
    ["64:ff9b::7f00:1", "internal"],
    ["2002:7f00:1::", "internal"],
    ["224.0.0.1", "internal"],
    ["255.255.255.255", "internal"],
    ["8.8.8.8", "public"],
    ["2606:4700::1111", "public"],
    ["not an address", "internal"],
  ])("%s is %s", (address, kind) => {
    expect(addressClass(address)).toBe(kind);
  });
});

describe("the size of what is written", () => {
  it("a contract over the size bound is an error at its operation, and nothing is written", async () => {
    const huge = { type: "object", properties: { id: { type: "string" } }, example: { id: "x".repeat(MAX_CONTRACT_BYTES) } };
    const spec = openapi30({
      "/small": { get: { operationId: "small", responses: { 200: OK_OBJECT } } },
      "/huge": { get: { operationId: "huge", responses: { 200: { description: "ok", content: { "application/json": { schema: huge } } } } } },
    });
    const imported = await importSpec(spec);
    expectRefused(imported, "/paths/~1huge/get", /^huge: the contract would be \d+ bytes, more than the 1048576 an import writes/);
  });
});
