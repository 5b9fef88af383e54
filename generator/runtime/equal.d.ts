/** Type declarations for equal.js (plain ESM, like formats.js, so the generated validators load without TS tooling). */
export declare function equal(a: unknown, b: unknown): boolean;
