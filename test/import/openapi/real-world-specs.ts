/**
 * The published descriptions a new user would import (issue #38), copied
 * from pinned npm packages into test/corpus/openapi/ (test/corpus/README.md
 * says where each comes from), with the figures docs/import.md reports for
 * each. The integration project's global setup imports and compiles them
 * side by side with no curation file, so that one tsc program per TypeScript
 * version checks them all; real-world.test.ts asserts on what it built and
 * calls a sample of each through the generated server against Prism.
 */
import { join } from "node:path";
import { ROOT, runCli } from "../../compiler/helpers.js";
import type { ImportedSpec } from "./corpus-specs.js";
import { importSpec, scratchProject } from "./helpers.js";

export const CORPUS = join(ROOT, "test/corpus/openapi");

export interface RealWorldSpec {
  readonly name: string;
  /** The description, below test/corpus/openapi/. */
  readonly file: string;
  readonly operations: number;
  readonly tools: number;
  /** Every warning of the import, by kind (warningKind). */
  readonly warnings: Readonly<Record<string, number>>;
}

export const REAL_WORLD: readonly RealWorldSpec[] = [
  { name: "notion", file: "notion/notion-openapi.json", operations: 24, tools: 24, warnings: { "unknown format": 2, "scheme no operation applies": 1 } },
  {
    name: "twilio",
    file: "twilio/twilio_api_v2010.json",
    operations: 197,
    tools: 197,
    warnings: { "unknown format": 340, "keyword dropped": 83, "no 2xx answer": 1, "tool count": 1 },
  },
  { name: "twilio-verify", file: "twilio/twilio_verify_v2.json", operations: 53, tools: 53, warnings: { "keyword dropped": 18, "unknown format": 6 } },
  { name: "readme-callbacks", file: "readme/callbacks.json", operations: 1, tools: 1, warnings: {} },
  // Two multipart uploads are tools (multipart.test.ts sends them); the image/png upload is skipped with one warning.
  { name: "readme-file-uploads", file: "readme/file-uploads.json", operations: 3, tools: 2, warnings: { "body not sent": 1 } },
  { name: "readme-polymorphism", file: "readme/polymorphism.json", operations: 13, tools: 13, warnings: { discriminator: 3 } },
  { name: "readme-discriminators", file: "readme/discriminators.json", operations: 10, tools: 10, warnings: { discriminator: 9 } },
  { name: "shipengine", file: "shipengine/openapi.yaml", operations: 76, tools: 76, warnings: { "unknown format": 2 } },
  { name: "rclone", file: "rclone/openapi.yaml", operations: 101, tools: 101, warnings: { "other 2xx schema": 91 } },
];

const KINDS: readonly (readonly [string, RegExp])[] = [
  ["unknown format", /^format .* is not one toolc checks/],
  ["keyword dropped", /is not a JSON Schema keyword/],
  ["discriminator", /discriminator/],
  ["other 2xx schema", /response's schema differs from/],
  ["no 2xx answer", /no 2xx/],
  ["body not sent", /request body .* (?:cannot send|is not offered)|^skipped: a multipart/],
  ["scheme no operation applies", /^no operation applies security scheme/],
  ["tool count", /tools is more than/],
];

/** A warning's kind, for the table in docs/import.md; `other` for one no kind matches. */
export function warningKind(message: string): string {
  return KINDS.find(([, pattern]) => pattern.test(message))?.[0] ?? "other";
}

/** Imports `spec` with no curation file into a project under `parent` and compiles it with `toolc generate`. */
export async function buildRealWorld(spec: RealWorldSpec, parent?: string): Promise<ImportedSpec & { warningKinds: Record<string, number> }> {
  const dir = scratchProject(`real-${spec.name}`, { dependencies: { "@modelcontextprotocol/sdk": "1.32.2" } }, parent);
  const started = Date.now();
  const { result, messages } = await importSpec(join(CORPUS, spec.file), undefined, {}, dir);
  const importMs = Date.now() - started;
  // Nothing to compile when every operation was skipped.
  const generate = result.tools.length === 0 ? { code: 0, stdout: "", stderr: "" } : await runCli(dir, ["generate"]);
  const warningKinds: Record<string, number> = {};
  for (const p of result.problems) if (p.severity === "warning") warningKinds[warningKind(p.message)] = (warningKinds[warningKind(p.message)] ?? 0) + 1;
  return {
    name: spec.name,
    dir,
    operations: result.operations,
    tools: result.tools.length,
    errors: result.problems.filter((p) => p.severity === "error"),
    warnings: result.problems.filter((p) => p.severity === "warning").length,
    messages,
    conversions: Object.fromEntries(result.conversions.counts()),
    generate,
    skipped: result.skipped.length,
    importMs,
    warningKinds,
  };
}
