/**
 * The emitted types agree with the validator: values Ajv accepts type-check,
 * and values Ajv rejects (for reasons a TS type can express) do not. Each case
 * (soundness-cases.ts) is checked twice — by Ajv here, and by tsc (5.9, 6.0
 * and 7.0, in the global setup's programs) as an assignment, with
 * `// @ts-expect-error` above the ones that must fail; an unused directive is
 * itself an error, so "bad values don't type-check" is really asserted.
 */
import { describe, expect, it } from "vitest";
import { createAjv } from "../../../generator/ajv.js";
import { TYPESCRIPTS } from "../../helpers/typescripts.js";
import { tscOutput } from "../../typecheck/fixtures.js";
import { cases, tool } from "./soundness-cases.js";

describe("emitted types agree with the validator", () => {
  const ajv = createAjv({ applyDefaults: false });
  const validate = { SearchOrdersInput: ajv.compile(tool.inputSchema), SearchOrdersOutput: ajv.compile(tool.outputSchema) };

  it.each(cases)("Ajv: $type $why is valid=$valid", (c) => {
    expect(validate[c.type](structuredClone(c.value))).toBe(c.valid);
  });

  describe.each(TYPESCRIPTS)("TypeScript $version", ({ version }) => {
    it("type-checks good values and rejects bad ones under --strict", () => {
      expect(tscOutput("strict", version, "emitted-types")).toBe("");
    });
    it("also under every strict flag (exactOptionalPropertyTypes, noUncheckedIndexedAccess, noUnusedLocals and the rest)", () => {
      expect(tscOutput("consumer", version, "emitted-types")).toBe("");
    });
  });
});
