/**
 * `llms.txt` (llmstxt.org): a title, a one-paragraph summary, what an agent
 * must know to call the tools, and a list of links to each tool's Markdown
 * page, so an agent can read the catalog without HTML.
 */
import { markdownText } from "./escape.js";
import type { Catalog } from "./context.js";
import { toolFileName } from "../ts-names.js";

const GUIDE = [
  "Each tool takes one JSON object that must match its input schema, and returns structured content that matches its output schema.",
  "A failed call returns a failure envelope: INVALID_INPUT with the paths to fix (the handler did not run), RETRYABLE (already retried as the contract allows), REJECTED with one of the tool's declared reasons, or FAILED; each says whether anything changed.",
  "Effects: read tools change nothing; write tools change state; destructive tools may destroy data and cannot be undone, so confirm with a person first.",
];

export function llmsText(catalog: Catalog, header: string): string {
  const tools = catalog.tools.map((tool) => {
    const about = [tool.effect, tool.title, tool.description].filter((part): part is string => part !== undefined && part !== "").join(". ");
    return `- [${markdownText(tool.name)}](tools/${encodeURIComponent(toolFileName(tool))}.md): ${markdownText(about)}`;
  });
  const sections = [`## Tools\n\n${tools.join("\n")}`];
  if (catalog.types.length > 0) sections.push(`## Types\n\n- [Types](types.md): the named types the tools' schemas use`);
  if (catalog.options.releases.length > 0) sections.push(`## Optional\n\n- [Changelog](changelog.md): what changed in the contracts, release by release`);
  const counts = `${catalog.tools.length} ${catalog.tools.length === 1 ? "tool" : "tools"}`;
  const their = catalog.tools.length === 1 ? "its" : "their";
  return `# ${markdownText(catalog.options.title)}\n\n> ${markdownText(`${header} ${counts}, with ${their} input and output schemas, policies, rejections and examples.`)}\n\n${GUIDE.join("\n")}\n\n${sections.join("\n\n")}\n`;
}
