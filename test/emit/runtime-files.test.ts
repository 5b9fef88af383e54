/**
 * The runtime a project gets is its source: every runtime source is in the
 * layout toolc writes (formatted, with the runtime's header line), a copy is
 * the source byte for byte, and a project is given the modules its
 * generated files reach, no more (no contract-test helper without tests, no
 * provider runtime without providers.ts) and no fewer.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { format } from "prettier";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { emitRuntimeFiles, reachedRuntimeFiles, RUNTIME_HEADER, runtimeSourcePaths, type McpSdkLine, type RuntimeNeeds } from "../../generator/emit/runtime-files.js";
import { readRuntimeImports, runtimeImports } from "../../generator/emit/runtime-imports.js";
import { compile } from "../../generator/pipeline/run.js";
import { FORMAT_OPTIONS } from "../../generator/format/prettier.js";
import { planOutput } from "../../generator/write/output.js";
import { emitRuntime as emitOpenApiRuntime } from "../../generator/import/openapi/handlers.js";
import { ROOT } from "../compiler/helpers.js";

const RUNTIME = join(ROOT, "generator/runtime");
const LINES: readonly McpSdkLine[] = [1, 2];

/** Where a copy in runtime/ comes from, per line: the 2.x port's files from sdk2/. */
function sourceOf(line: McpSdkLine, path: string): string {
  const name = path.slice("runtime/".length);
  const port = join(RUNTIME, "sdk2", name);
  const ported = line === 2 && ["sdk.ts", "sdk-http.ts", "sdk-testing.ts", "auth.ts", "tool-host.ts"].includes(name);
  return ported ? port : join(RUNTIME, name);
}

/** The relative modules a file imports, as TypeScript reads them, `./x.js` as `x.ts`. */
function importedRuntime(text: string, prefix: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => s.startsWith(prefix))
    .map((s) => s.slice(prefix.length).replace(/\.js$/, ".ts"));
}

describe("runtime sources", () => {
  const paths = runtimeSourcePaths();

  it("are every .ts file of generator/runtime/, its 2.x port and the OpenAPI runtime", () => {
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.some((p) => p.endsWith("/sdk2/auth.ts"))).toBe(true);
    expect(paths.some((p) => p.endsWith("/openapi-runtime/openapi-http.ts"))).toBe(true);
  });

  it.each(runtimeSourcePaths().map((p) => [relative(ROOT, p), p]))("%s is formatted as a project gets it (npm run format:runtime)", async (_, path) => {
    const text = readFileSync(path, "utf8");
    expect(await format(text, { ...FORMAT_OPTIONS, parser: "typescript", filepath: path })).toBe(text);
  });

  it.each(runtimeSourcePaths().filter((p) => !p.includes("openapi-runtime")).map((p) => [basename(p), p]))("%s starts with the runtime's header line", (_, path) => {
    expect(readFileSync(path, "utf8").split("\n")[0]).toBe(RUNTIME_HEADER);
  });
});

describe("a project's runtime copy", () => {
  const everything: RuntimeNeeds = { tests: true, providers: true, auth: true };

  it.each(LINES)("is its source byte for byte, every file of SDK line %i", (line) => {
    const files = emitRuntimeFiles({ ...everything, mcpSdk: line });
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      expect(file.text === readFileSync(sourceOf(line, file.path), "utf8"), file.path).toBe(true);
    }
    expect(files.find((f) => f.path === "runtime/executor.ts")?.text).toBe(readFileSync(join(RUNTIME, "executor.ts"), "utf8"));
  });

  it.each(LINES)("holds every runtime file its own files import, on SDK line %i", (line) => {
    const files = emitRuntimeFiles({ ...everything, mcpSdk: line });
    const names = new Set(files.map((f) => f.path.slice("runtime/".length)));
    for (const file of files) for (const imported of importedRuntime(file.text, "./")) expect(names.has(imported), `${file.path} imports ${imported}`).toBe(true);
  });

  it.each([
    ["neither tests nor providers", { tests: false, providers: false }, [], ["contract-tests.ts", "sdk-testing.ts", "providers.ts", "provider-nulls.ts", "auth.ts"]],
    ["tests", { tests: true, providers: false }, ["contract-tests.ts", "sdk-testing.ts"], ["providers.ts", "provider-nulls.ts"]],
    ["providers", { tests: false, providers: true }, ["providers.ts", "provider-nulls.ts"], ["contract-tests.ts", "sdk-testing.ts"]],
    ["auth", { auth: true, providers: false }, ["auth.ts"], ["contract-tests.ts", "providers.ts"]],
  ] as const)("with %s, on SDK 2.x, has exactly the modules they reach", (_, needs, present, absent) => {
    const names = emitRuntimeFiles({ ...needs, mcpSdk: 2 }).map((f) => f.path.slice("runtime/".length));
    for (const name of [...present, "executor.ts", "server.ts", "client.ts", "api.ts"]) expect(names).toContain(name);
    for (const name of absent) expect(names).not.toContain(name);
  });

  it("on SDK 1.x has no resource server, and its HTTP port brings the stream it writes to", () => {
    const names = emitRuntimeFiles({ auth: true, mcpSdk: 1 }).map((f) => f.path);
    expect(names).not.toContain("runtime/auth.ts");
    expect(names).toContain("runtime/http-stream.ts");
    expect(emitRuntimeFiles({ mcpSdk: 2 }).map((f) => f.path)).not.toContain("runtime/http-stream.ts");
  });

  it("follows an import a source gains after the build, and refuses one outside runtime/", () => {
    const sources = new Map([
      ["contract.ts", 'import { x } from "./extra.js";\nexport type { Y } from "./types-only.js";\n'],
      ["extra.ts", "export const x = 1;\n"],
      ["types-only.ts", "export type Y = 1;\n"],
    ]);
    const only = (text: string): string[] => readRuntimeImports("x.ts", text);
    expect(only(sources.get("contract.ts")!)).toEqual(["extra.ts", "types-only.ts"]);
    expect(runtimeImports("contract.ts", sources.get("contract.ts")!)).toEqual(["extra.ts", "types-only.ts"]);
    expect(only('const m = await import("./lazy.js");\nimport "node:fs";\nimport { z } from "zod";\n')).toEqual(["lazy.ts"]);
    expect(() => only('import { a } from "../generator.js";\n')).toThrow(/outside runtime\//);
    expect(() => reachedRuntimeFiles({ providers: false }, sources)).toThrow(/runtime\/validator-errors\.ts is imported but is not a runtime file/);
  });
});

describe("a compiled project's runtime", () => {
  const cases: readonly [string, Parameters<typeof compile>[3]][] = [
    ["demo, SDK 2.x, tests and providers", { mcpSdk: 2, tests: "test/toolc" }],
    ["demo, SDK 1.x, no tests, no providers", { mcpSdk: 1, providers: false }],
  ];

  it.each(cases)("%s: every runtime import of the generated files is written, and nothing it cannot reach", async (_, options) => {
    const { files, diagnostics } = await compile("definitions", "generated", ROOT, options);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const runtime = new Set(files!.filter((f) => f.path.startsWith("runtime/") && f.root === undefined).map((f) => f.path.slice("runtime/".length)));
    const imported = new Set<string>();
    for (const file of files!.filter((f) => f.path.endsWith(".ts") && !f.path.startsWith("runtime/"))) {
      const depth = file.root === "tests" ? "../../generated/runtime/" : `${"../".repeat(file.path.split("/").length - 1) || "./"}runtime/`;
      for (const name of importedRuntime(file.text, depth)) imported.add(name);
    }
    for (const name of imported) expect(runtime.has(name), `runtime/${name}`).toBe(true);
    // What the files import, followed through the runtime's own imports, is everything written but the validators' helpers a schema may need.
    const sources = new Map(files!.filter((f) => f.path.startsWith("runtime/")).map((f) => [f.path.slice("runtime/".length), f.text]));
    const closure = new Set<string>();
    const visit = (name: string): void => {
      if (closure.has(name)) return;
      closure.add(name);
      importedRuntime(sources.get(name)!, "./").forEach(visit);
    };
    imported.forEach(visit);
    expect([...runtime].filter((n) => !closure.has(n)).every((n) => ["equal.ts", "length.ts", "multiple.ts", "formats.ts"].includes(n))).toBe(true);
    expect(runtime.has("contract-tests.ts")).toBe(options?.tests !== undefined);
    expect(runtime.has("providers.ts")).toBe(options?.providers !== false);
  });
});

describe("an output folder", () => {
  it("counts a runtime copy as toolc's (a module no longer reached is removed) and a file without the header as someone else's", () => {
    const out = mkdtempSync(join(tmpdir(), "toolc-runtime-"));
    mkdirSync(join(out, "runtime"));
    writeFileSync(join(out, "runtime/contract-tests.ts"), `${RUNTIME_HEADER}\nexport {};\n`);
    writeFileSync(join(out, "runtime/mine.ts"), `// mine\n// ${RUNTIME_HEADER.slice(3)}\n`);
    const plan = planOutput([], { out });
    expect(plan.stale).toEqual([join(out, "runtime/contract-tests.ts")]);
    expect(plan.foreign).toEqual([join(out, "runtime/mine.ts")]);
  });
});

describe("the OpenAPI import's runtime", () => {
  it("is written beside the handlers as its source, byte for byte", () => {
    const source = readFileSync(join(ROOT, "generator/openapi-runtime/openapi-http.ts"), "utf8");
    expect(emitOpenApiRuntime() === source).toBe(true);
    expect(source.split("\n")[0]).toMatch(/^\/\/ Written by toolc import openapi: /);
  });
});
