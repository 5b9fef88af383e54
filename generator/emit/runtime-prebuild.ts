/**
 * Run by `npm run build` after tsc: formats the runtime once, in toolc's
 * fixed style, into the table runtime-files.ts reads, so no generate has to
 * run prettier on files that only change with toolc itself.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatFiles, FORMAT_OPTIONS } from "../format/prettier.js";
import { PREFORMATTED_URL, rawRuntimeFiles, runtimeSourceHash, type McpSdkLine, type PreformattedRuntime } from "./runtime-files.js";

export async function formatRuntimeTable(): Promise<PreformattedRuntime> {
  const table: PreformattedRuntime = {};
  for (const line of [1, 2] as const satisfies readonly McpSdkLine[]) {
    const raw = rawRuntimeFiles(line);
    const formatted = await formatFiles(raw, FORMAT_OPTIONS);
    table[`${line}`] = Object.fromEntries(raw.map((file, i) => [file.path, { sourceHash: runtimeSourceHash(file.text), text: formatted[i].text }]));
  }
  return table;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(PREFORMATTED_URL, `${JSON.stringify(await formatRuntimeTable())}\n`);
}
