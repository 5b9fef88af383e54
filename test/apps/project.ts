/**
 * A consumer project with views (MCP Apps) for the apps tests: a fixture's
 * definitions copied into a temporary folder with a package.json of one MCP
 * SDK line, toolc's node_modules linked, and `toolc generate` run by the CLI.
 */
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate, linkAllModules } from "../contract-tests/project.js";
import { ROOT } from "../compiler/helpers.js";
import type { SdkLine } from "../e2e/sdk-lines/generate.js";

export async function appsProject(line: SdkLine, fixture = "test/fixtures/apps"): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `toolc-apps-${line}-`));
  cpSync(join(ROOT, fixture), join(dir, "definitions"), { recursive: true });
  const sdk = line === 1 ? { "@modelcontextprotocol/sdk": "*" } : { "@modelcontextprotocol/server": "*", "@modelcontextprotocol/client": "*" };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `apps-${line}`, private: true, type: "module", dependencies: sdk }));
  linkAllModules(dir);
  await generate(dir);
  return dir;
}
