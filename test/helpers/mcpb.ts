/**
 * The MCP Bundle CLI and manifest schemas, `@anthropic-ai/mcpb` pinned in
 * test/mcpb-runtimes (installed by `npm run runtimes`, apart from the root's
 * dependencies): the manifest the mcpb target writes is checked against the
 * package's own zod schema, and packed and validated with its own CLI.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;
const PACKAGE = join(ROOT, "test/mcpb-runtimes/node_modules/@anthropic-ai/mcpb");

/** The `mcpb` CLI's entry point (its package.json `bin`), run with `node`; throws, saying how to install it, when it is missing. */
export function mcpbCli(): string {
  const cli = join(PACKAGE, "dist/cli/cli.js");
  if (!existsSync(cli)) throw new Error(`@anthropic-ai/mcpb is not installed at ${PACKAGE}: run \`npm run runtimes\` (npm ci in test/mcpb-runtimes)`);
  return cli;
}

export { v0_3 } from "../mcpb-runtimes/node_modules/@anthropic-ai/mcpb/dist/schemas/index.js";
export { getMcpConfigForManifest } from "../mcpb-runtimes/node_modules/@anthropic-ai/mcpb/dist/shared/config.js";
