/** Running `toolc import openapi` on descriptions written in a test, and reading back what it wrote. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { parse } from "yaml";
import { importOpenApi, type OpenApiImportOptions, type OpenApiImportResult } from "../../../generator/import/openapi/index.js";
import { ROOT } from "../../compiler/helpers.js";

export type Obj = Record<string, unknown>;

export const FIXTURES = join(ROOT, "test/import/openapi/fixtures");

/** A pinned description as a file: the gzipped ones are unpacked into `dir`. */
export function fixtureSpec(name: "github" | "blockfrost" | "slack", dir: string): string {
  if (name === "blockfrost") return join(FIXTURES, "blockfrost/openapi.yaml");
  const packed = name === "github" ? "github/api.github.com.json.gz" : "slack/slack_web_openapi_v2.json.gz";
  const target = join(dir, `${name}.json`);
  writeFileSync(target, gunzipSync(readFileSync(join(FIXTURES, packed))));
  return target;
}

/** A scratch npm project with toolc's node_modules linked in, in the system's temporary folder or in `parent`. */
export function scratchProject(prefix: string, packageJson: Obj = {}, parent: string = tmpdir()): string {
  const dir = mkdtempSync(join(parent, `toolc-openapi-${prefix}-`));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: prefix, private: true, type: "module", ...packageJson }, null, 2));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

export interface Imported {
  readonly dir: string;
  readonly result: OpenApiImportResult;
  readonly contracts: Record<string, Obj>;
  readonly messages: string[];
}

export function contractsIn(dir: string): Record<string, Obj> {
  const defs = join(dir, "definitions");
  let files: string[] = [];
  try {
    files = readdirSync(defs).filter((f) => f.endsWith(".yaml"));
  } catch {
    return {};
  }
  return Object.fromEntries(files.map((f) => [f.replace(/\.yaml$/, ""), parse(readFileSync(join(defs, f), "utf8")) as Obj]));
}

/** Imports `spec` (an object written as JSON, or a path) with an optional curation (YAML text). */
export async function importSpec(spec: Obj | string, curation?: string, options: Partial<OpenApiImportOptions> = {}, dir?: string): Promise<Imported> {
  const project = dir ?? mkdtempSync(join(tmpdir(), "toolc-openapi-"));
  mkdirSync(project, { recursive: true });
  const specPath = typeof spec === "string" ? spec : join(project, "api.json");
  if (typeof spec !== "string") writeFileSync(specPath, JSON.stringify(spec));
  if (curation !== undefined) writeFileSync(join(project, "openapi.curation.yaml"), curation);
  const result = await importOpenApi({
    spec: specPath, out: "definitions", generated: "generated", handlers: "openapi-handlers.ts", curation: "openapi.curation.yaml", cwd: project, ...options,
  });
  const messages = [...result.diagnostics.map((d) => `${d.code}: ${d.message}`), ...result.problems.map((p) => `${p.severity} ${p.pointer}: ${p.message}`)];
  return { dir: project, result, contracts: contractsIn(project), messages };
}

/** An OpenAPI 3.0 document around `paths` (and `components`). */
export function openapi30(paths: Obj, components: Obj = {}, extra: Obj = {}): Obj {
  return { openapi: "3.0.3", info: { title: "Shop API", version: "1" }, servers: [{ url: "https://shop.example/v1" }], paths, components, ...extra };
}

export const OK_OBJECT = { description: "ok", content: { "application/json": { schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } } } };

type Components = Record<string, Record<string, unknown>>;

/**
 * GitHub's pinned description cut down to the operations named (by
 * operationId) and the components they reach, so a test reads GitHub's own
 * operations without parsing all 1,223.
 */
export function githubOperations(operationIds: readonly string[]): Obj {
  const full = JSON.parse(gunzipSync(readFileSync(join(FIXTURES, "github/api.github.com.json.gz"))).toString()) as { paths: Record<string, Record<string, Obj>>; components: Components } & Obj;
  const paths: Record<string, Obj> = {};
  for (const [path, item] of Object.entries(full.paths)) {
    for (const [method, op] of Object.entries(item)) if (operationIds.includes(op.operationId as string)) (paths[path] ??= {})[method] = op;
  }
  const components: Components = {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      const ref = key === "$ref" && typeof value === "string" ? /^#\/components\/([^/]+)\/([^/]+)$/.exec(value) : null;
      if (!ref) visit(value);
      else if (components[ref[1]!]?.[ref[2]!] === undefined) visit(((components[ref[1]!] ??= {})[ref[2]!] = full.components[ref[1]!]![ref[2]!]));
    }
  };
  visit(paths);
  return { openapi: full.openapi, info: full.info, servers: full.servers, paths, components };
}

/** The curation example of docs/import.md (the YAML block that starts `env: GITHUB`), as the reader copies it. */
export function docsGithubCuration(): string {
  const docs = readFileSync(join(ROOT, "docs/import.md"), "utf8");
  const block = /```yaml\n(env: GITHUB[\s\S]*?)```/.exec(docs);
  if (!block) throw new Error("docs/import.md has no curation example starting `env: GITHUB`");
  return block[1]!;
}
