/**
 * The size of the code-mode declaration text (generated codemode.ts
 * `codeModeDeclarations`), the context a model reads before it writes code
 * against the tools: bytes, and tokens estimated as bytes / 4 (one estimate
 * for every surface docs/surfaces.md compares). For the demo's definitions,
 * and with `--github` for GitHub's REST description imported with
 * `toolc import openapi` (1,223 tools) into a temp project.
 *
 *   npx tsx bench/codemode-size.ts [--github]
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { loadDefinitions } from "../generator/load/index.js";
import { normalize } from "../generator/normalize/index.js";
import { codeModeDeclarations } from "../generator/targets/codemode/declarations.js";
import { ROOT, tempProject, toolc } from "./lib/project.js";

/** Tokens estimated from bytes, the same way for every surface. */
export const estimatedTokens = (bytes: number): number => Math.ceil(bytes / 4);

function report(label: string, definitions: string): void {
  const { ir } = normalize(loadDefinitions(definitions, { displayRoot: ROOT }));
  const bytes = Buffer.byteLength(codeModeDeclarations(ir, "tools"));
  console.log(
    `${label}: ${ir.tools.length} tools, declaration text ${bytes.toLocaleString("en")} bytes, ~${estimatedTokens(bytes).toLocaleString("en")} tokens`,
  );
}

report("demo", join(ROOT, "definitions"));
if (process.argv.includes("--github")) {
  const dir = tempProject("codemode-size");
  const spec = join(dir, "github.json");
  writeFileSync(spec, gunzipSync(readFileSync(join(ROOT, "test/import/openapi/fixtures/github/api.github.com.json.gz"))));
  toolc(dir, ["import", "openapi", spec]);
  report("GitHub", join(dir, "definitions"));
  rmSync(dir, { recursive: true, force: true });
}
