/**
 * Test-side access to what the global setup (setup.ts) provides: the tsc
 * diagnostics of one check, and the fixture projects it built. A check or
 * fixture that is missing fails the asking test, with the reason.
 */
import { inject } from "vitest";
import type { TypecheckFixtures } from "./provided.js";

function failures(): string {
  const { failures } = inject("typecheckFixtures") ?? { failures: {} };
  const names = Object.keys(failures);
  return names.length === 0 ? "" : `\nfixtures that failed to build:\n${names.map((n) => `${n}: ${failures[n]}`).join("\n")}`;
}

/** tsc's diagnostics for `check` in `program` under TypeScript `version`, as tsc prints them ("" when clean). */
export function tscOutput(program: string, version: string, check: string): string {
  const output = inject("tsc")?.[program]?.[version]?.[check];
  if (output === undefined) throw new Error(`no tsc result for ${check} in program ${program}, TypeScript ${version}: is test/typecheck/setup.ts the project's globalSetup?${failures()}`);
  return output;
}

/** A fixture the global setup built. */
export function typecheckFixture<K extends Exclude<keyof TypecheckFixtures, "failures" | "base">>(name: K): NonNullable<TypecheckFixtures[K]> {
  const value = inject("typecheckFixtures")?.[name];
  if (value === undefined || value === null) throw new Error(`the global setup built no ${name} fixture${failures()}`);
  return value as NonNullable<TypecheckFixtures[K]>;
}
