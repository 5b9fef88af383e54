/** Type declarations for equal.js (plain ESM, like formats.js, so the generated validators load without TS tooling). */
export declare function equal(a: unknown, b: unknown): boolean;
/** For `uniqueItems`: the first item `i` equal to an earlier item `j`, or undefined when all differ; linear time. */
export declare function duplicateItems(items: readonly unknown[]): { i: number; j: number } | undefined;
