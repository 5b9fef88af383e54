/**
 * Writes the MCP section of docs/conformance.md: the official conformance
 * suite's server scenarios against the fixture server, per protocol
 * generation and SDK line, from the same harness the conformance test uses.
 *
 * Run: npx tsx bench/mcp-conformance-report.ts   (after npm run runtimes: the suite runs on Node.js 24)
 */
import { runGenerations } from "../test/mcp-conformance/harness.js";
import { DOC, renderSection, writeSection } from "../test/mcp-conformance/report.js";

writeSection(renderSection(await runGenerations()));
console.log(`wrote the MCP section of ${DOC}`);
