// Written by `toolc evals` beside the cases: promptfoo's test cases from the pack's JSONL (tests: file://promptfoo-tests.mjs).
/**
 * The model cases of the pack (`call` and `refrain`) as promptfoo tests:
 * the prompt is the case's, and promptfoo-assert.mjs judges the call the
 * provider answers with (`{ tool, arguments }` as JSON, or `null`). The
 * `correct` and `scenario` cases need the project's generated API, so
 * play.mjs runs them (under vitest or any runner), not promptfoo.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parsePack } from "./play.mjs";

export default function tests() {
  const here = dirname(fileURLToPath(import.meta.url));
  const files = Object.fromEntries(
    readdirSync(here)
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => [name, readFileSync(join(here, name), "utf8")]),
  );
  return parsePack(files)
    .filter((c) => c.kind === "call" || c.kind === "refrain")
    .map((c) => ({
      description: c.id,
      vars: { prompt: c.prompt, case: JSON.stringify(c) },
      assert: [{ type: "javascript", value: "file://promptfoo-assert.mjs" }],
    }));
}
