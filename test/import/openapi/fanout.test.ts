/**
 * An OpenAPI description whose schemas fan out (docs/robustness.md, "Third
 * attack pass", H2): components that each refer to the next one twice
 * double at every level once dereferenced, and validating the dereferenced
 * document walked every copy. It is validated with its references in place
 * instead; the import finishes (the test's timeout is the only clock).
 */
import { describe, expect, it } from "vitest";
import { importSpec, openapi30 } from "./helpers.js";

function doublingComponents(levels: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    schemas[`D${i}`] = { type: "object", properties: { a: { $ref: `#/components/schemas/D${i + 1}` }, b: { $ref: `#/components/schemas/D${i + 1}` } } };
  }
  schemas[`D${levels}`] = { type: "string", maxLength: 8 };
  return { schemas };
}

describe("an OpenAPI description whose schemas fan out", () => {
  it("imports 24 doubling levels, validated with the references in place", { timeout: 600_000 }, async () => {
    const paths = {
      "/fan": {
        get: {
          operationId: "getFan",
          responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/D0" } } } } },
        },
      },
    };
    const { messages, contracts } = await importSpec(openapi30(paths, doublingComponents(24)));
    expect(messages.filter((m) => m.includes("validated against its OpenAPI schema with its references in place"))).toHaveLength(1);
    expect(Object.keys(contracts)).toEqual(["getFan"]);
  });

  it("validates a small description dereferenced, as before", { timeout: 600_000 }, async () => {
    const paths = {
      "/fan": {
        get: {
          operationId: "getFan",
          responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/D0" } } } } },
        },
      },
    };
    const { messages } = await importSpec(openapi30(paths, doublingComponents(2)));
    expect(messages.some((m) => m.includes("references in place"))).toBe(false);
  });
});
