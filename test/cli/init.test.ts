/**
 * `toolc init` on scratch projects (real files in a temp folder): what it
 * creates, that the starter compiles and its contract tests pass, that a
 * second run changes nothing, and that it never overwrites a user's file.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT, runCli, snapshotTree } from "../compiler/helpers.js";
import { runVitest } from "../contract-tests/project.js";
import { TYPESCRIPTS } from "../helpers/typescripts.js";
import { tscOutput, typecheckFixture } from "../typecheck/fixtures.js";
import { ours, scratch } from "./init-project.js";

const exec = promisify(execFile);

async function prettier(dir: string, mode: "--check" | "--write"): Promise<{ code: number; output: string }> {
  try {
    const r = await exec(process.execPath, [join(ROOT, "node_modules/prettier/bin/prettier.cjs"), mode, "."], { cwd: dir });
    return { code: 0, output: r.stdout + r.stderr };
  } catch (e) {
    const f = e as { code: number; stdout: string; stderr: string };
    return { code: f.code, output: f.stdout + f.stderr };
  }
}

const STARTER_TSCONFIG = {
  compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: ["node"], rootDir: "src", outDir: "dist" },
  include: ["src"],
};

/** Calls `greet` on the built starter over stdio with the SDK 2.x client, as an MCP host would. */
async function greetBuiltServer(dir: string): Promise<unknown> {
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  const client = new Client({ name: "init-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ["dist/server.js"], cwd: dir, stderr: "pipe" }));
  try {
    return (await client.callTool({ name: "greet", arguments: { name: "Ada" } })).structuredContent;
  } finally {
    await client.close();
  }
}

describe("toolc init", () => {
  it("sets up a project, and a second run changes nothing", async () => {
    const dir = scratch({ vitest: true });
    const first = await runCli(dir, ["init"]);
    expect(first.code, first.stderr).toBe(0);
    for (const path of ["toolc.config.yaml", "tsconfig.json", "definitions/greet.yaml", "src/handlers.ts", "src/server.ts", ".gitattributes", ".prettierignore"]) {
      expect(first.stdout).toMatch(new RegExp(`created +${path.replace(".", "\\.")}`));
      expect(existsSync(join(dir, path)), path).toBe(true);
    }
    // The contract tests call the real handlers: init says so, and what keeps a destructive or confirmed one out (#34).
    expect(first.stdout).toContain(
      "Contract tests: they run every example through the real handlers in src/handlers.ts (the config's `handlers`), so those calls really happen; a destructive or confirmed tool's handler runs only when `runInTests` lists it",
    );
    expect(readFileSync(join(dir, "toolc.config.yaml"), "utf8")).toContain("# runInTests: [destructive, confirmed]\n");
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(readFileSync(join(dir, "package.json"), "utf8")).toMatch(/^\{\n\t"name": "my-tools",\n/);
    expect(pkg.scripts).toEqual({ build: "tsc", test: "vitest run", prebuild: "toolc generate", check: "toolc check" });
    // No MCP SDK in package.json yet: the 2.x line, its server and client packages, and the config says so.
    expect(pkg.dependencies).toEqual({
      "@modelcontextprotocol/server": ours.devDependencies["@modelcontextprotocol/server"],
      "@modelcontextprotocol/client": ours.devDependencies["@modelcontextprotocol/client"],
      "@modelcontextprotocol/node": ours.devDependencies["@modelcontextprotocol/node"],
    });
    expect(readFileSync(join(dir, "toolc.config.yaml"), "utf8")).toMatch(/^mcp: \{ sdk: 2 \}$/m);
    expect(readFileSync(join(dir, "src/server.ts"), "utf8")).toContain('from "@modelcontextprotocol/server/stdio"');
    // Node's types for the Node that runs init, as a range: a pin to toolc's own @types/node would clash with newer tools (ERESOLVE).
    expect(pkg.devDependencies).toEqual({ toolc: "file:../toolc.tgz", vitest: ours.devDependencies.vitest, "@types/node": `^${process.versions.node.split(".")[0]}` });
    // The project has a build of its own, so no TypeScript is added; the tsconfig it lacked is.
    expect(JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8"))).toEqual(STARTER_TSCONFIG);
    expect(readFileSync(join(dir, "definitions/greet.yaml"), "utf8")).toMatch(/^# yaml-language-server: \$schema=\.\.\/node_modules\/toolc\/schema\/contract\.schema\.json\n/);
    expect(readFileSync(join(dir, "toolc.config.yaml"), "utf8")).toMatch(/^# yaml-language-server: \$schema=node_modules\/toolc\/schema\/config\.schema\.json\n/);
    expect(readFileSync(join(dir, ".gitattributes"), "utf8")).toContain("src/generated/** linguist-generated=true\ntest/toolc/** linguist-generated=true\n");
    expect(readFileSync(join(dir, ".prettierignore"), "utf8")).toContain("/src/generated/\n/test/toolc/\n");

    const before = snapshotTree(dir);
    const second = await runCli(dir, ["init"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^toolc init: nothing to do/);
    expect(second.stdout).not.toMatch(/created|updated/);
    expect(snapshotTree(dir)).toEqual(before);
  });

  it("gives a project with no build a tsc build, a tsconfig and TypeScript, and the starter builds and serves", async () => {
    const dir = scratch();
    const pkgPath = join(dir, "package.json");
    writeFileSync(pkgPath, readFileSync(pkgPath, "utf8").replace('"build": "tsc",', ""));
    const result = await runCli(dir, ["init"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/created +tsconfig\.json/);
    expect(result.stdout).toContain("script build: tsc");
    const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
    expect(pkg.scripts).toEqual({ test: "vitest run", build: "tsc", prebuild: "toolc generate", check: "toolc check" });
    expect(pkg.devDependencies.typescript).toBe(ours.devDependencies["typescript-7"].replace("npm:typescript@", ""));
    expect(JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8"))).toEqual(STARTER_TSCONFIG);
    // npm run build: prebuild, then tsc (TypeScript 7, the version init added) with the tsconfig init wrote.
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    await exec(process.execPath, [join(ROOT, "node_modules/typescript-7/bin/tsc")], { cwd: dir });
    expect(await greetBuiltServer(dir)).toEqual({ greeting: "Hello, Ada." });
    // A tsconfig of the project's own is never replaced, and a second run adds no build.
    writeFileSync(join(dir, "tsconfig.json"), "{}\n");
    expect((await runCli(dir, ["init"])).stdout).toMatch(/^toolc init: nothing to do/);
    expect(readFileSync(join(dir, "tsconfig.json"), "utf8")).toBe("{}\n");
  });

  it("gives a starter that compiles under strict flags, whose contract tests pass through the real handler", async () => {
    // The global setup ran init and generate on a scratch project with vitest (starterProject in init-project.ts), and type-checks it.
    const { dir, init, generate } = typecheckFixture("starter");
    expect(init.code, init.stderr).toBe(0);
    expect(generate.code, generate.stderr).toBe(0);
    expect(existsSync(join(dir, "src/generated/index.ts"))).toBe(true);
    expect(existsSync(join(dir, "test/toolc/greet.test.ts"))).toBe(true);
    for (const { version } of TYPESCRIPTS) expect(tscOutput("consumer", version, "starter"), `TypeScript ${version}`).toBe("");
    const tests = await runVitest(dir);
    expect(tests.failed, tests.output).toEqual([]);
    expect(tests.output).not.toContain("No test files found");
    expect(readFileSync(join(dir, "test/toolc/greet.test.ts"), "utf8")).toContain('from "../../src/handlers.js"');
    expect((await runCli(dir, ["check"])).code).toBe(0);
  });

  it("leaves the project's prettier check green: its own files follow its config, toolc's are ignored", async () => {
    const dir = scratch({ prettierrc: { semi: false, singleQuote: true, useTabs: true, printWidth: 100 } });
    expect((await prettier(dir, "--write")).code).toBe(0);
    expect((await runCli(dir, ["init"])).code).toBe(0);
    expect((await runCli(dir, ["generate", "--tests", "test/toolc"])).code).toBe(0);
    expect(readFileSync(join(dir, "src/server.ts"), "utf8")).toContain("from './generated/index.js'\n");
    const result = await prettier(dir, "--check");
    expect(result.code, result.output).toBe(0);
    // The check has teeth: without the ignore entries, toolc's fixed style fails it.
    writeFileSync(join(dir, ".prettierignore"), "");
    expect((await prettier(dir, "--check")).code).not.toBe(0);
  });

  it("never overwrites a user's file, and says what it left alone", async () => {
    const dir = scratch();
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src/server.ts"), "// mine\n");
    writeFileSync(join(dir, ".prettierignore"), "coverage");
    const pkgText = readFileSync(join(dir, "package.json"), "utf8").replace('"test": "vitest run"', '"check": "eslint ."').replace('"type": "module",', '"type": "module",\n\t"dependencies": { "@modelcontextprotocol/sdk": "1.20.0" },');
    writeFileSync(join(dir, "package.json"), pkgText);
    const result = await runCli(dir, ["init"]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, "src/server.ts"), "utf8")).toBe("// mine\n");
    expect(result.stdout).toMatch(/kept +src\/server\.ts: exists; not touched/);
    expect(result.stdout).toContain("script check already exists");
    expect(result.stdout).toContain(`@modelcontextprotocol/sdk is already a dependency (1.20.0); toolc is tested with ${ours.devDependencies["@modelcontextprotocol/sdk"]}`);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg.scripts.check).toBe("eslint .");
    expect(pkg.dependencies["@modelcontextprotocol/sdk"]).toBe("1.20.0");
    // A project on SDK 1.x stays there: no 2.x packages, and the config pins line 1.
    expect(Object.keys(pkg.dependencies)).toEqual(["@modelcontextprotocol/sdk"]);
    expect(readFileSync(join(dir, "toolc.config.yaml"), "utf8")).toMatch(/^mcp: \{ sdk: 1 \}$/m);
    expect(readFileSync(join(dir, ".prettierignore"), "utf8")).toBe("coverage\n\n# toolc's output has toolc's own fixed format; `toolc check` keeps it exact\n/src/generated/\n/test/toolc/\n");
  });

  it("adds no example or starter to a project that has contracts, and follows its config", async () => {
    const dir = scratch();
    cpSync(join(ROOT, "definitions"), join(dir, "contracts"), { recursive: true });
    writeFileSync(join(dir, "toolc.config.yaml"), "definitions: contracts\nout: lib/gen\ntests: false\n");
    const result = await runCli(dir, ["init"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(dir, "contracts/greet.yaml"))).toBe(false);
    expect(existsSync(join(dir, "src"))).toBe(false);
    expect(result.stdout).toMatch(/skipped +contracts: .*already has contracts/);
    // Its config names no handlers, so the contract tests run none.
    expect(result.stdout).not.toContain("real handlers");
    expect(readFileSync(join(dir, ".gitattributes"), "utf8")).toContain("lib/gen/** linguist-generated=true");
  });

  it("makes a fresh `npm init -y` project an ES module project, and says so; a project with code keeps its type", async () => {
    // npm 11's `npm init -y`: "type": "commonjs", and a main entry that does not exist yet.
    const npmInit = { name: "fresh", version: "1.0.0", description: "", main: "index.js", scripts: { test: 'echo "Error: no test specified" && exit 1' }, license: "ISC", type: "commonjs" };
    const fresh = mkdtempSync(join(tmpdir(), "toolc-init-"));
    writeFileSync(join(fresh, "package.json"), `${JSON.stringify(npmInit, null, 2)}\n`);
    const result = await runCli(fresh, ["init"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(fresh, "package.json"), "utf8")).type).toBe("module");
    expect(result.stdout).toContain('type: module (was "commonjs"; the project has no code yet');
    expect((await runCli(fresh, ["init"])).stdout).toMatch(/^toolc init: nothing to do/);

    // Code under src/, or a main entry that exists: its module type is the project's own, and init only says what it means.
    for (const code of ["src/lib/util.ts", "index.js"]) {
      const withCode = mkdtempSync(join(tmpdir(), "toolc-init-"));
      writeFileSync(join(withCode, "package.json"), `${JSON.stringify(npmInit, null, 2)}\n`);
      mkdirSync(join(withCode, "src/lib"), { recursive: true });
      writeFileSync(join(withCode, code), "module.exports = {};\n");
      const kept = await runCli(withCode, ["init"]);
      expect(kept.code, kept.stderr).toBe(0);
      expect(JSON.parse(readFileSync(join(withCode, "package.json"), "utf8")).type, code).toBe("commonjs");
      expect(kept.stdout, code).toContain('kept      package.json: type is "commonjs" (the project has code): top-level await');
    }
  });

  it("has a server starter whose trace shows what was wrong with an output, and what a handler threw", async () => {
    const dir = scratch();
    expect((await runCli(dir, ["init"])).code).toBe(0);
    expect((await runCli(dir, ["generate"])).code).toBe(0);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    // A handler still under construction: a wrong output for one name, a throw for another.
    writeFileSync(
      join(dir, "src/handlers.ts"),
      `import type { Handlers } from "./generated/index.js";
export const handlers: Handlers = {
  greet: async (input) => {
    if (input.name === "boom") throw new Error("database unreachable");
    return { greeting: 42 } as unknown as { greeting: string };
  },
};
`,
    );
    const { Client } = await import("@modelcontextprotocol/client");
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", "src/server.ts"], cwd: dir, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "init-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      await client.callTool({ name: "greet", arguments: { name: "Ada" } });
      await client.callTool({ name: "greet", arguments: { name: "boom" } });
    } finally {
      await client.close();
    }
    expect(stderr).toMatch(/greet@1 attempt=1 INVALID_OUTPUT \d+ms\n  output greeting: must be string\n/);
    expect(stderr).toContain("Error: database unreachable");
  });

  it("needs a package.json, and stops on a broken config", async () => {
    const empty = mkdtempSync(join(tmpdir(), "toolc-init-"));
    const none = await runCli(empty, ["init"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no package.json here");
    const dir = scratch();
    writeFileSync(join(dir, "toolc.config.yaml"), "outt: x\n");
    const broken = await runCli(dir, ["init"]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("toolc.config.yaml:1:1: error TC002: unknown key `outt` in toolc.config.yaml; did you mean `out`?");
    expect(existsSync(join(dir, "definitions"))).toBe(false);
  });
});
