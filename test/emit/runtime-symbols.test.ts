/**
 * The typed table of the runtime's exports (generator/emit/runtime-symbols.ts):
 * an emitter naming a runtime export that does not exist fails toolc's own
 * type check. Shown with the TypeScript compiler on a snippet held in memory
 * (at a path in this folder, so its imports resolve as an emitter's do).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { runtimeValue } from "../../generator/emit/runtime-symbols.js";

const HERE = new URL(".", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;
const SNIPPET = join(HERE, "runtime-symbols.snippet.ts");

/** The type errors of `text`, compiled as if it were a module beside this test, with toolc's compiler options. */
function typeErrors(text: string): string[] {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) => (file === SNIPPET ? ts.createSourceFile(file, text, language) : getSourceFile(file, language, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => file === SNIPPET || fileExists(file);
  host.readFile = (file) => (file === SNIPPET ? text : readFileSync(file, "utf8"));
  const program = ts.createProgram([SNIPPET], options, host);
  const source = program.getSourceFile(SNIPPET);
  return ts.getPreEmitDiagnostics(program, source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

const IMPORT = 'import { runtimeValue } from "../../generator/emit/runtime-symbols.js";\n';

describe("the runtime's exports, as emitters name them", () => {
  it("accepts an export the runtime has, and prints its import as before", () => {
    expect(typeErrors(`${IMPORT}export const ok = runtimeValue("api", "createToolServer");\n`)).toEqual([]);
    expect(runtimeValue("dispatch", "executeByName", "../")).toEqual({
      kind: "import",
      name: "executeByName",
      from: "../runtime/dispatch.js",
      typeOnly: false,
    });
  });

  it.each([
    ["an export the module does not have", 'runtimeValue("api", "createToolServr")', "createToolServr"],
    ["an export of another runtime module", 'runtimeValue("http", "createToolServer")', "createToolServer"],
    ["a module the runtime does not have", 'runtimeValue("apis", "createToolServer")', "apis"],
  ])("fails the type check on %s", (_, call, named) => {
    const errors = typeErrors(`${IMPORT}export const bad = ${call};\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`"${named}"`);
  });

  it("knows the SDK 2.x tool host's and the views' runtime modules too", () => {
    expect(typeErrors(`${IMPORT}export const a = runtimeValue("tool-host", "registerToolsOn");\nexport const b = runtimeValue("view", "viewResultOf", "../");\n`)).toEqual([]);
    expect(typeErrors(`${IMPORT}export const c = runtimeValue("view", "viewResultOff");\n`)[0]).toContain('"viewResultOff"');
  });

  it("is the only way an emitter names a runtime value: no valueSymbol or string names a runtime module's path by hand", () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".ts") && entry.name !== "runtime-symbols.ts")
          readFileSync(path, "utf8")
            .split("\n")
            .forEach((line, i) => {
              // toolc's own imports of the runtime's code, and type-only symbols (checked when the outputs compile), are not names an emitter prints.
              if (line.startsWith("import ") || line.includes("typeSymbol(")) return;
              if (/valueSymbol\([^)]*runtime\/|["'`](\.\.?\/)+runtime\/[\w-]+\.js["'`]/.test(line)) offenders.push(`${relative(ROOT, path)}:${i + 1}: ${line.trim()}`);
            });
      }
    };
    for (const folder of ["generator/emit", "generator/targets"]) walk(join(ROOT, folder));
    expect(offenders).toEqual([]);
  });
});

