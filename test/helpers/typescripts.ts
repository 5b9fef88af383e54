/**
 * The TypeScript versions generated code must compile with: 5.9, 6.0 and
 * 7.0 (the native compiler, what `npm i -D typescript` installs today), each
 * a devDependency (the later two as npm aliases), and the strict flags it
 * must compile under. Every tsc check in the suite takes both from here.
 */
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

export interface TypeScriptVersion {
  readonly version: string;
  /** Its `tsc` entry point, run with `node`. */
  readonly bin: string;
  /**
   * Arguments every check passes it. TypeScript 7 checks on several threads
   * by default; the suite already runs one tsc per core, so the threads
   * add CPU time (1.5× that of one thread on the matrix programs, for the
   * same diagnostics).
   */
  readonly args: readonly string[];
  /**
   * Its compiler API module, for a version written in JavaScript: the suite
   * then runs all its programs in one process (test/typecheck/tsc-batch.mjs),
   * with the same output as `tsc` for each.
   */
  readonly api?: string;
}

export const TYPESCRIPTS: readonly TypeScriptVersion[] = [
  { version: "5.9", bin: join(ROOT, "node_modules/typescript/bin/tsc"), args: [], api: join(ROOT, "node_modules/typescript/lib/typescript.js") },
  { version: "6.0", bin: join(ROOT, "node_modules/typescript-6/bin/tsc"), args: [], api: join(ROOT, "node_modules/typescript-6/lib/typescript.js") },
  { version: "7.0", bin: join(ROOT, "node_modules/typescript-7/bin/tsc"), args: ["--singleThreaded"] },
];

/**
 * The strictest flags people use, as tsconfig compilerOptions, except
 * verbatimModuleSyntax: a CommonJS package cannot have it (it rejects every
 * ES import or export in a CommonJS .ts file, TS1287, TS1295).
 */
export const STRICT_FLAGS = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  noFallthroughCasesInSwitch: true,
  isolatedModules: true,
  erasableSyntaxOnly: true,
  forceConsistentCasingInFileNames: true,
} as const;

/** Every strict flag, verbatimModuleSyntax included: what an ES module package's generated code compiles under. */
export const STRICTEST = { ...STRICT_FLAGS, verbatimModuleSyntax: true } as const;
