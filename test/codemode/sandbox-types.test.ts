/**
 * The code-mode API type-checks: the generated codemode.ts under the
 * strictest flags on every TypeScript the suite supports, and the model's
 * script (fixtures/orders-script.ts.txt) against the declaration text alone
 * (`codeModeDeclarations` as a .d.ts, no other types than the standard
 * library's) under TypeScript 7's strictest, where a call with a wrong
 * argument type is refused: the declarations are the contract's types, not
 * `any`.
 */
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRICTEST, TYPESCRIPTS } from "../helpers/typescripts.js";
import { codeModeProject } from "./project.js";

const run = promisify(execFile);
const HERE = new URL(".", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;
if (!existsSync(join(ROOT, "test/codemode-runtimes/node_modules/@cloudflare/codemode")))
  throw new Error("@cloudflare/codemode is not installed in test/codemode-runtimes: run `npm run runtimes`");

let dir: string;
let declarations: string;

beforeAll(async () => {
  dir = await codeModeProject();
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  declarations = ((await import(pathToFileURL(join(dir, "generated/codemode.ts")).href)) as { codeModeDeclarations: string }).codeModeDeclarations;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function tsc(bin: string, args: readonly string[], project: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [bin, ...args, "-p", project]);
    return { code: 0, output: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: `${e.stdout}${e.stderr}` };
  }
}

function tsconfig(folder: string, include: string[], lib: string[]): string {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, "tsconfig.json");
  const options = { ...STRICTEST, module: "nodenext", target: "es2022", lib, types: [], noEmit: true, skipLibCheck: true, moduleDetection: "force" };
  writeFileSync(file, JSON.stringify({ compilerOptions: options, include }));
  return file;
}

describe("the generated codemode.ts", () => {
  it.each(TYPESCRIPTS)("compiles under the strictest flags on TypeScript $version", async ({ bin, args }) => {
    const project = tsconfig(join(dir, `check-${TYPESCRIPTS.findIndex((t) => t.bin === bin)}`), ["../generated/codemode.ts"], ["es2022", "dom"]);
    const result = await tsc(bin, args, project);
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
  });
});

describe("the @cloudflare/codemode binding", () => {
  it("is a ToolProvider by @cloudflare/codemode 0.5.6's published types", async () => {
    const folder = join(dir, "cloudflare");
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "provider.ts"),
      [
        'import type { ToolProvider } from "@cloudflare/codemode";',
        'import { cloudflareCodeMode, codeModeHost } from "../generated/codemode.js";',
        'import type { Handlers } from "../generated/index.js";',
        "declare const handlers: Handlers;",
        "export const provider: ToolProvider = cloudflareCodeMode(codeModeHost(handlers));",
        "export const types: string | undefined = provider.types;",
        "",
      ].join("\n"),
    );
    const config = tsconfig(folder, ["provider.ts"], ["es2022", "dom"]);
    const json = JSON.parse(readFileSync(config, "utf8")) as { compilerOptions: Record<string, unknown> };
    json.compilerOptions.paths = { "@cloudflare/codemode": [join(ROOT, "test/codemode-runtimes/node_modules/@cloudflare/codemode/dist/index.d.ts")] };
    writeFileSync(config, JSON.stringify(json));
    const typescript7 = TYPESCRIPTS.find((t) => t.version === "7.0")!;
    const result = await tsc(typescript7.bin, typescript7.args, config);
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
  });
});

describe("a script written against the declaration text", () => {
  const typescript7 = TYPESCRIPTS.find((t) => t.version === "7.0")!;

  it("type-checks under TypeScript 7 strictest, with the declarations as its only types", async () => {
    const folder = join(dir, "script");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "codemode.d.ts"), declarations);
    copyFileSync(join(HERE, "fixtures/orders-script.ts.txt"), join(folder, "orders-script.ts"));
    const result = await tsc(typescript7.bin, typescript7.args, tsconfig(folder, ["codemode.d.ts", "orders-script.ts"], ["es2022", "dom"]));
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
  });

  it("is refused when it passes a wrong type or reads a field the output has not", async () => {
    const folder = join(dir, "wrong");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "codemode.d.ts"), declarations);
    writeFileSync(
      join(folder, "wrong.ts"),
      ["async () => {", "  const found = await tools.getOrder({ customerId: 42 });", "  return found.total;", "};", ""].join("\n"),
    );
    const result = await tsc(typescript7.bin, typescript7.args, tsconfig(folder, ["codemode.d.ts", "wrong.ts"], ["es2022", "dom"]));
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/wrong\.ts\(2,\d+\): error TS2322/);
    expect(result.output).toMatch(/wrong\.ts\(3,\d+\): error TS2339: Property 'total' does not exist/);
  });
});
