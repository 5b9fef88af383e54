/**
 * Type soundness: every instance a generated validator accepts type-checks
 * against the generated TS type, under tsc --strict with each supported
 * TypeScript version. The global setup writes one check file (check.ts) and
 * compiles it in its `strict` program; this file asserts on the errors,
 * sorted by case.
 *
 * A failure means a type is narrower than its validator: code written
 * against the type would mishandle a value the runtime lets through.
 *
 *   npx vitest run test/soundness        (SOUNDNESS_SAMPLES=n per schema, default 100)
 */
import { afterAll, describe, expect, it } from "vitest";
import { TYPESCRIPTS } from "../helpers/typescripts.js";
import { typecheckFixture } from "../typecheck/fixtures.js";

afterAll(() => {
  console.log(`type soundness: ${JSON.stringify(typecheckFixture("soundness").figures, null, 2)}`);
});

describe("type soundness", () => {
  it("samples every demo and corpus schema (the arbitraries reach each one)", () => {
    expect(typecheckFixture("soundness").figures["targetsWithoutSamples"]).toEqual([]);
  });

  it.each(TYPESCRIPTS)("every accepted instance type-checks with TypeScript $version", ({ version }) => {
    const result = typecheckFixture("soundness").byVersion[version];
    expect(result, `no soundness result for TypeScript ${version}`).toBeDefined();
    expect(result!.stray).toEqual([]);
    // The first few are enough to see a pattern; the count says how widespread it is.
    const failures = Object.entries(result!.failures);
    expect({ count: failures.length, first: Object.fromEntries(failures.slice(0, 15)) }).toEqual({ count: 0, first: {} });
  });
});
