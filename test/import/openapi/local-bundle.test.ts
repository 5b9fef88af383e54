/**
 * The bundle skipped where it changes nothing (local-bundle.ts): for every
 * pinned real description and for each kind of reference the bundle does
 * rewrite, the check agrees with what json-schema-ref-parser's bundle
 * actually does, and the import reads the same document either way.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { bundleOptions } from "../../../generator/import/openapi/document-source.js";
import { readDocuments } from "../../../generator/import/openapi/documents.js";
import { bundlesUnchanged } from "../../../generator/import/openapi/local-bundle.js";
import { readSpec } from "../../../generator/import/openapi/spec.js";
import { Reporter } from "../../../generator/import/problems.js";
import { fixtureSpec, type Obj } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "toolc-local-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** The description's root document as read, and as the parser's bundle leaves it (from a read of its own). */
async function readAndBundle(location: string): Promise<{ read: unknown; bundled: unknown; documents: number }> {
  const first = await readDocuments({ location, display: "api", cwd: dir });
  const second = await readDocuments({ location, display: "api", cwd: dir });
  const bundled: unknown = await SwaggerParser.bundle(location, bundleOptions(second.documents) as never);
  return { read: first.documents.get(first.root!), bundled, documents: first.documents.size };
}

function written(name: string, doc: Obj): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

const schema = (body: Obj): Obj => ({
  openapi: "3.0.3",
  info: { title: "T", version: "1" },
  paths: { "/a": { get: { responses: { 200: { description: "ok", content: { "application/json": { schema: body } } } } } } },
  components: { schemas: { A: { type: "string" }, "B c": { type: "integer" }, "D/E": { type: "boolean" }, Alias: { $ref: "#/components/schemas/A" } } },
});

describe("bundlesUnchanged", () => {
  it.each(["github", "slack", "blockfrost"] as const)(
    "agrees with the bundle on the pinned %s description",
    async (name) => {
      const { read, bundled } = await readAndBundle(fixtureSpec(name, dir));
      const unchanged = bundlesUnchanged(read);
      expect(unchanged).toBe(JSON.stringify(read) === JSON.stringify(bundled));
      if (name === "github") expect(unchanged).toBe(true);
    },
    120_000,
  );

  it.each([
    ["a direct local pointer", { $ref: "#/components/schemas/A" }, true],
    ["a pointer into an array", { allOf: [{ $ref: "#/paths/~1a/get/responses/200/content/application~1json/schema/allOf/1" }, { type: "string" }] }, false],
    ["a reference to a reference", { $ref: "#/components/schemas/Alias" }, false],
    ["a name with a space, percent-encoded", { $ref: "#/components/schemas/B%20c" }, false],
    ["a name with a space, as it is", { $ref: "#/components/schemas/B c" }, false],
    ["an escaped slash", { $ref: "#/components/schemas/D~1E" }, false],
    ["the whole document", { items: { $ref: "#" }, type: "array" }, false],
  ] as const)("%s", async (_label, body, expected) => {
    const path = written(`case-${_label.replace(/\W+/g, "-")}.json`, schema(body as Obj));
    const { read, bundled } = await readAndBundle(path);
    expect(bundlesUnchanged(read)).toBe(expected);
    // Answering true only where the bundle really changes nothing is the point; false is always safe.
    if (expected) expect(bundled).toEqual(read);
  });

  it("a missing target goes through the bundle, which reports it", async () => {
    const path = written("missing.json", schema({ $ref: "#/components/schemas/Nope" }));
    const report = new Reporter("missing.json");
    expect(await readSpec(path, report, { cwd: dir })).toBeUndefined();
    expect(report.problems.map((p) => p.message).join("\n")).toMatch(/cannot read the API description: .*Nope/);
  });
});

describe("readSpec", () => {
  it("reads a description of direct local pointers without running the bundle", async () => {
    const bundle = vi.spyOn(SwaggerParser, "bundle");
    const spec = await readSpec(written("direct.json", schema({ $ref: "#/components/schemas/A" })), new Reporter("direct.json"), { cwd: dir });
    expect(spec?.operations).toHaveLength(1);
    expect(bundle).not.toHaveBeenCalled();
  });

  it("bundles a description whose references it rewrites, and reads the rewritten document", async () => {
    const bundle = vi.spyOn(SwaggerParser, "bundle");
    const spec = await readSpec(written("alias.json", schema({ $ref: "#/components/schemas/Alias" })), new Reporter("alias.json"), { cwd: dir });
    expect(bundle).toHaveBeenCalledTimes(1);
    const paths = spec!.document.paths as Obj;
    expect(JSON.stringify(paths)).toContain('"$ref":"#/components/schemas/A"');
  });
});
