/**
 * The proof on API descriptions nobody here wrote (fixtures/README.md): the
 * GitHub REST API (OpenAPI 3.0, 1,223 operations), Blockfrost (OpenAPI 3.0
 * in YAML, `nullable` and `allOf`, an API key) and the Slack Web API
 * (Swagger 2.0, form bodies, OAuth). Each is imported whole, compiled with
 * `toolc generate`, and the generated code and handlers are type-checked
 * under every strict flag. The figures asserted here are the ones
 * docs/import.md reports.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STRICTEST, TYPESCRIPTS } from "../../helpers/typescripts.js";
import { runCli } from "../../compiler/helpers.js";
import { fixtureSpec, importSpec, scratchProject, type Imported } from "./helpers.js";

/** GitHub's description declares no security scheme; its docs say a token goes in `Authorization: Bearer`. */
const GITHUB_CURATION = `env: GITHUB
securitySchemes:
  token: { type: http, scheme: bearer }
security: [[token]]
`;

interface CorpusSpec {
  readonly name: "github" | "blockfrost" | "slack";
  readonly curation?: string;
  readonly operations: number;
  readonly warnings: number;
  /** The TypeScript versions the whole output is checked with; GitHub's is checked from the handlers module (see below). */
  readonly typescripts: readonly string[];
}

const SPECS: readonly CorpusSpec[] = [
  { name: "blockfrost", operations: 129, warnings: 53, typescripts: ["5.9", "6.0", "7.0"] },
  { name: "slack", operations: 174, warnings: 47, typescripts: ["5.9", "6.0", "7.0"] },
  { name: "github", curation: GITHUB_CURATION, operations: 1223, warnings: 98, typescripts: ["7.0"] },
];

function tsconfig(dir: string, include: readonly string[]): void {
  const compilerOptions = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2023"], types: ["node"], noEmit: true, skipLibCheck: true, ...STRICTEST };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include }, null, 2));
}

describe.each(SPECS)("$name", (spec) => {
  let imported: Imported;
  const dir = scratchProject(`corpus-${spec.name}`, { dependencies: { "@modelcontextprotocol/sdk": "1.32.2" } });

  it(`imports all ${spec.operations} operations with no errors`, { timeout: 600_000 }, async () => {
    imported = await importSpec(fixtureSpec(spec.name, dir), spec.curation, {}, dir);
    expect(imported.result.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(imported.result.operations).toBe(spec.operations);
    expect(imported.result.tools).toHaveLength(spec.operations);
    expect(imported.result.problems).toHaveLength(spec.warnings);
    // More tools than VS Code takes: the warning names the curation options.
    expect(imported.messages.join("\n")).toMatch(/more than 128 .*`include`\/`exclude`.*`groups`/);
  });

  it("compiles with toolc generate, without errors", { timeout: 900_000 }, async () => {
    const generated = await runCli(dir, ["generate"]);
    expect(generated.stderr.split("\n").filter((l) => / error /.test(l))).toEqual([]);
    expect(generated.code).toBe(0);
    expect(generated.stdout).toContain(`${spec.operations} tools compiled`);
  });

  // GitHub's 1,223 tools make generated/providers.ts too large for TypeScript (TS2590 in its tool arrays);
  // the server, the client and the handlers do not import it, so its check starts from the handlers module.
  it.each(TYPESCRIPTS.filter((ts) => spec.typescripts.includes(ts.version)))("type-checks under every strict flag with TypeScript $version", { timeout: 900_000 }, ({ bin, args }) => {
    tsconfig(dir, spec.name === "github" ? ["openapi-handlers.ts"] : ["generated", "openapi-handlers.ts", "openapi-http.ts"]);
    const run = spawnSync(process.execPath, ["--max-old-space-size=6144", bin, ...args, "-p", dir], { encoding: "utf8" });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
