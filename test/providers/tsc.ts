/** tsc over files with a given set of compiler options; its output, "" when clean. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../compiler/helpers.js";

export const TYPESCRIPTS = [
  { version: "5.9", bin: join(ROOT, "node_modules/typescript/bin/tsc") },
  { version: "6.0", bin: join(ROOT, "node_modules/typescript-6/bin/tsc") },
];

export function typecheck(bin: string, files: string[], options: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "toolc-providers-tsc-"));
  const compilerOptions = { strict: true, noEmit: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", skipLibCheck: true, types: ["node"], typeRoots: [join(ROOT, "node_modules/@types")], ...options };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
  try {
    execFileSync(process.execPath, [bin, "-p", join(dir, "tsconfig.json")], { encoding: "utf8", cwd: ROOT });
    return "";
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? e);
  }
}
