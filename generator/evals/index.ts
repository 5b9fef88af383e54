/**
 * The eval pack: per tool, a JSONL file of the cases derived from its
 * contract (cases.ts), plus the thin adapters that run them (adapters/:
 * play.mjs for any test runner, vitest included; promptfoo's config, test
 * loader, assertion and scripted provider). Kept in its own folder so it can
 * become a target of `generate` later.
 */
import { existsSync, readFileSync } from "node:fs";
import type { ContractIR, EmittedFile } from "../ir.js";
import { casesOf } from "./cases.js";
import { toolFileName } from "../emit/ts-names.js";

export { casesOf, EVAL_SCHEMA, type EvalCase } from "./cases.js";

const ADAPTERS = ["play.mjs", "promptfoo-tests.mjs", "promptfoo-assert.mjs", "promptfoo-scripted-provider.mjs", "promptfooconfig.yaml"] as const;
/** The adapters' sources: beside this module when it runs from source, in generator/evals/ beside dist/ when built. */
const ADAPTER_DIR = existsSync(new URL("./adapters/", import.meta.url))
  ? new URL("./adapters/", import.meta.url)
  : new URL("../../generator/evals/adapters/", import.meta.url);

/** One JSON object a line, keys in the order cases.ts builds them, a newline after the last. */
function jsonl(values: readonly unknown[]): string {
  return values.map((value) => `${JSON.stringify(value)}\n`).join("");
}

/** The pack's files: `<tool>.jsonl` for each tool that has a case, then the adapters, as they are. */
export function evalPackFiles(ir: ContractIR): EmittedFile[] {
  const files: EmittedFile[] = [];
  for (const tool of [...ir.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const cases = casesOf(tool);
    if (cases.length > 0) files.push({ path: `${toolFileName(tool)}.jsonl`, text: jsonl(cases) });
  }
  for (const name of ADAPTERS) files.push({ path: name, text: readFileSync(new URL(name, ADAPTER_DIR), "utf8") });
  return files;
}
