/**
 * The TypeScript versions generated code must compile with: 5.9, 6.0 and
 * 7.0 (the native compiler, what `npm i -D typescript` installs today), each
 * a devDependency (the later two as npm aliases).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

export interface TypeScriptVersion {
  readonly version: string;
  /** Its `tsc` entry point, run with `node`. */
  readonly bin: string;
}

export const TYPESCRIPTS: readonly TypeScriptVersion[] = [
  { version: "5.9", bin: join(ROOT, "node_modules/typescript/bin/tsc") },
  { version: "6.0", bin: join(ROOT, "node_modules/typescript-6/bin/tsc") },
  { version: "7.0", bin: join(ROOT, "node_modules/typescript-7/bin/tsc") },
];

/** Runs tsc --strict --noEmit over `files` (plus `extra` options); returns its output ("" when clean). */
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
