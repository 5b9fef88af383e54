/**
 * The runtime target: the real, tested sources in generator/runtime/ copied
 * into the output, so generated code imports nothing from toolc.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { EmittedFile } from "../ir.js";
import { headerComment } from "./header.js";

const RUNTIME_DIR = new URL("../../generator/runtime/", import.meta.url);

let cached: EmittedFile[] | undefined;

function isRuntimeSource(name: string): boolean {
  return name.endsWith(".ts") && !name.endsWith(".test.ts");
}

/** Runtime files with their header. All are TypeScript, so a consumer's build compiles (and an outDir gets) every one. */
export function emitRuntimeFiles(): EmittedFile[] {
  cached ??= readdirSync(RUNTIME_DIR)
    .filter(isRuntimeSource)
    .sort()
    .map((name) => {
      const text = readFileSync(new URL(name, RUNTIME_DIR), "utf8");
      return { path: `runtime/${name}`, text: `${headerComment(`toolc runtime/${name}`)}\n${text}`, format: true };
    });
  return cached;
}
