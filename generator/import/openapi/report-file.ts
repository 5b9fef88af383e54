/**
 * The `--report` file: every conversion and every problem of one import,
 * one line per field, in Markdown, so a reviewer sees what changed and why
 * without reading the contracts.
 */
import type { OpenApiImportResult } from "./index.js";

/** A value in a Markdown table cell: pipes escaped, no line breaks, no HTML. */
function cell(text: string): string {
  return text
    .replace(/[\r\n\u2028\u2029]+/g, " ")
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/</g, "&lt;")
    .replace(/`/g, "'");
}

export function reportMarkdown(result: OpenApiImportResult): string {
  const lines = [
    `# Import of ${cell(result.spec?.title ?? "an API description")}`,
    "",
    `- OpenAPI version: ${result.spec?.version ?? "unread"}`,
    `- operations: ${result.operations}, selected: ${result.selected}, tools: ${result.tools.length}, skipped: ${result.skipped.length}`,
    `- conversions: ${result.conversions.list.length} (${
      result.conversions
        .counts()
        .map(([k, n]) => `${cell(k)} ${n}`)
        .join(", ") || "none"
    })`,
    `- problems: ${result.problems.filter((p) => p.severity === "error").length} errors, ${result.problems.filter((p) => p.severity === "warning").length} warnings`,
    "",
    "## Problems",
    "",
    "| severity | where | message |",
    "| --- | --- | --- |",
    // A problem without a pointer is about a whole file, or located in the curation file (`file:line:col`).
    ...result.problems.map((p) => `| ${p.severity} | ${cell(p.pointer || p.file)} | ${cell(p.message)} |`),
    "",
    "## Conversions",
    "",
    "| kind | where | what |",
    "| --- | --- | --- |",
    ...result.conversions.list.map((c) => `| ${cell(c.kind)} | ${cell(c.pointer)} | ${cell(c.message)} |`),
    "",
    "## Writes and their retries",
    "",
    "A write is retried only when repeating it cannot apply it twice: it is idempotent, or every attempt sends the same idempotency key.",
    "",
    "| tool | operation | idempotent | idempotency key | attempts | why |",
    "| --- | --- | --- | --- | ---: | --- |",
    ...result.writes.map(
      (w) =>
        `| ${cell(w.tool)} | ${cell(`${w.method} ${w.path}`)} | ${w.idempotent ? "yes" : "no"} | ${w.idempotencyKey === undefined ? "none" : cell(w.idempotencyKey)} | ${w.attempts} | ${cell(w.why)} |`,
    ),
    "",
    "## Credentials per tool",
    "",
    result.credentials.length === 0
      ? "The description declares no security scheme: no handler sends a credential."
      : "Each handler sends the first alternative whose environment variables are all set; each contract's description says the same.",
    "",
    ...(result.credentials.length === 0
      ? []
      : [
          "| tool | operation | credentials |",
          "| --- | --- | --- |",
          ...result.credentials.map((c) => `| ${cell(c.tool)} | ${cell(`${c.method} ${c.path}`)} | ${cell(c.credentials)} |`),
          "",
        ]),
  ];
  return lines.join("\n");
}
