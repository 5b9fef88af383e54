/**
 * Which MCP SDK line a project is on, when neither `mcp.sdk` nor
 * `--mcp-sdk` says: read from what its package.json depends on. The 2.x
 * packages win over `@modelcontextprotocol/sdk`, since a project that
 * added them is moving to that line; with neither, new projects start on 2.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** 1: `@modelcontextprotocol/sdk`; 2: `@modelcontextprotocol/server` and `@modelcontextprotocol/client`. */
export type McpSdkLine = 1 | 2;

export const DEFAULT_MCP_SDK: McpSdkLine = 2;

const LINE_2_PACKAGES = ["@modelcontextprotocol/server", "@modelcontextprotocol/client"];
const LINE_1_PACKAGE = "@modelcontextprotocol/sdk";
const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"];

function declaredPackages(root: string): Set<string> {
  const names = new Set<string>();
  try {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
    for (const field of DEPENDENCY_FIELDS) {
      const deps = pkg[field];
      if (deps !== null && typeof deps === "object") for (const name of Object.keys(deps)) names.add(name);
    }
  } catch {
    // No package.json, or not JSON: nothing declared.
  }
  return names;
}

/** The line the package.json in `root` depends on, else the default. */
export function mcpSdkLine(root: string): McpSdkLine {
  const declared = declaredPackages(root);
  if (LINE_2_PACKAGES.some((name) => declared.has(name))) return 2;
  if (declared.has(LINE_1_PACKAGE)) return 1;
  return DEFAULT_MCP_SDK;
}

/** The value of `--mcp-sdk`, or undefined when it is neither 1 nor 2. */
export function parseMcpSdkFlag(value: string): McpSdkLine | undefined {
  return value === "1" ? 1 : value === "2" ? 2 : undefined;
}
