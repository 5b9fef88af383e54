/**
 * The runtime module a contracts module imports at load (`toolContract`,
 * runtime/contract.ts), written beside contracts written on their own into
 * a scratch folder, as `generate` copies it into `runtime/`.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../compiler/helpers.js";

export function withContractRuntime(out: string): string {
  mkdirSync(join(out, "runtime"), { recursive: true });
  copyFileSync(join(ROOT, "generator/runtime/contract.ts"), join(out, "runtime/contract.ts"));
  return out;
}
