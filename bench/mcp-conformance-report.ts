/**
 * Writes the MCP section of docs/conformance.md: the official conformance
 * suite's server scenarios against the fixture server on each SDK line, from
 * the same harness the conformance test uses.
 *
 * Run: npx tsx bench/mcp-conformance-report.ts
 */
import { runOnBothLines } from "../test/mcp-conformance/harness.js";
import { DOC, renderSection, writeSection } from "../test/mcp-conformance/report.js";

writeSection(renderSection(await runOnBothLines()));
console.log(`wrote the MCP section of ${DOC}`);
