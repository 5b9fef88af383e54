/**
 * The API descriptions nobody here wrote (fixtures/README.md), the figures
 * docs/import.md reports for each, and the import and compile of one into a
 * scratch project as a consumer runs them: `toolc import openapi`, then
 * `toolc generate`. Blockfrost and Slack are built once per run by the
 * integration project's global setup, which type-checks them in its shared
 * programs; GitHub is built and checked by corpus.test.ts alone.
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { runCli } from "../../compiler/helpers.js";
import { fixtureSpec, importSpec, scratchProject } from "./helpers.js";

export type CorpusName = "github" | "blockfrost" | "slack";

export interface CorpusSpec {
  readonly name: CorpusName;
  readonly curation?: string;
  readonly operations: number;
  /** Tools written: operations less those skipped (a request body toolc cannot send). */
  readonly tools: number;
  readonly warnings: number;
  /** Conversions by kind that docs/import.md reports: answers that are arrays, and other answers that are not objects. */
  readonly outputs: { readonly "array output": number; readonly "non-object output": number };
}

/** GitHub's description declares no security scheme; its docs say a token goes in `Authorization: Bearer`. */
const GITHUB_CURATION = `env: GITHUB
securitySchemes:
  token: { type: http, scheme: bearer }
security: [[token]]
`;

export const SPECS: Readonly<Record<CorpusName, CorpusSpec>> = {
  // Two operations take only CBOR bodies (/tx/submit, /utils/txs/evaluate): skipped, one warning each; /ipfs/add's multipart file is sent.
  blockfrost: { name: "blockfrost", operations: 129, tools: 127, warnings: 50, outputs: { "array output": 80, "non-object output": 1 } },
  slack: { name: "slack", operations: 174, tools: 174, warnings: 47, outputs: { "array output": 2, "non-object output": 0 } },
  github: { name: "github", curation: GITHUB_CURATION, operations: 1223, tools: 1223, warnings: 98, outputs: { "array output": 261, "non-object output": 15 } },
};

/** What importing and compiling a description gave; plain data, so the global setup can hand it to tests. */
export interface ImportedSpec {
  readonly name: string;
  readonly dir: string;
  readonly operations: number;
  readonly tools: number;
  readonly errors: readonly unknown[];
  readonly warnings: number;
  readonly messages: readonly string[];
  readonly conversions: Readonly<Record<string, number>>;
  readonly generate: { readonly code: number; readonly stdout: string; readonly stderr: string };
  readonly skipped: number;
  /** Wall time of the import alone (docs/import.md's table). */
  readonly importMs?: number;
}

/** Imports `spec` into a new project under `parent` (on MCP SDK 1.x, toolc's node_modules linked) and compiles it with `toolc generate`. */
export async function buildCorpusSpec(spec: CorpusSpec, parent?: string): Promise<ImportedSpec> {
  const dir = scratchProject(`corpus-${spec.name}`, { dependencies: { "@modelcontextprotocol/sdk": "1.32.2" } }, parent);
  const imported = await importSpec(fixtureSpec(spec.name, dir), spec.curation, {}, dir);
  const { result } = imported;
  const generate = await runCli(dir, ["generate"]);
  return {
    name: spec.name,
    dir,
    operations: result.operations,
    tools: result.tools.length,
    errors: result.problems.filter((p) => p.severity === "error"),
    warnings: result.problems.filter((p) => p.severity === "warning").length,
    messages: imported.messages,
    conversions: Object.fromEntries(result.conversions.counts()),
    generate,
    skipped: result.skipped.length,
  };
}

/** What a consumer's tsc compiles of an imported project: every module of the output folder, the handlers and their runtime. */
export function projectModules(dir: string): string[] {
  const generated = join(dir, "generated");
  const modules = readdirSync(generated, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).map((f) => join(generated, f));
  return [...modules, join(dir, "openapi-handlers.ts"), join(dir, "openapi-http.ts")].sort((a, b) => (relative(dir, a) < relative(dir, b) ? -1 : 1));
}
