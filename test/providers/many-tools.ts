/**
 * A project of more tools than GitHub's REST API has operations (1,223),
 * for the provider exports of a large project. Each tool's input has a
 * property named for it, so no tool's provider entry has the type of
 * another's: TypeScript types an array literal as the union of its
 * elements' types, reduced pairwise, and gives up on about a thousand that
 * differ (TS2590); identical ones would reduce to one at once and hide it.
 * The global setup generates it and type-checks its providers.ts, with the
 * SDK assignments of sdk-assign.ts, under TypeScript 5.9, 6.0 and 7.0.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const MANY_TOOLS = 1300;

function toolYaml(n: number): string {
  const name = `tool_${String(n).padStart(4, "0")}`;
  return `name: ${name}
version: 1
description: Looks up one thing, the ${n}th kind.
effect: read
input:
  type: object
  properties:
    ${name}_key: { type: string, maxLength: 64 }
  required: [${name}_key]
output:
  type: object
  properties:
    found: { type: boolean }
  required: [found]
`;
}

/** Writes the definitions and package.json of the project into `dir`. */
export function writeManyTools(dir: string): void {
  mkdirSync(join(dir, "definitions"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  for (let n = 1; n <= MANY_TOOLS; n++) writeFileSync(join(dir, "definitions", `tool_${String(n).padStart(4, "0")}.yaml`), toolYaml(n));
}
