/**
 * An OpenAPI description whose schemas fan out (docs/robustness.md, "Third
 * attack pass", H2): components that each refer to the next one twice
 * double at every level once dereferenced, and validating the dereferenced
 * document walked every copy. An OpenAPI 3.x document is always validated
 * with its references in place (#42: following them validated each shared
 * component again at every reference); a Swagger 2.0 one is dereferenced for
 * the parser's 2.0 checks unless it fans out. The import finishes (the
 * test's timeout is the only clock).
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
  it("imports 24 doubling levels of OpenAPI 3.0, validated with the references in place as every 3.x document is", { timeout: 600_000 }, async () => {
    const paths = {
      "/fan": {
        get: {
          operationId: "getFan",
          responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/D0" } } } } },
        },
      },
    };
    const { messages, contracts } = await importSpec(openapi30(paths, doublingComponents(24)));
    // Nothing to warn about: no 3.x document is dereferenced to be validated.
    expect(messages.filter((m) => m.includes("references in place") || m.includes("does not validate"))).toEqual([]);
    expect(Object.keys(contracts)).toEqual(["getFan"]);
  });

  it("imports 24 doubling levels of Swagger 2.0 validated with the references in place, and says so once", { timeout: 600_000 }, async () => {
    const { messages, contracts } = await importSpec(swagger20(doublingDefinitions(24)));
    expect(messages.filter((m) => m.includes("validated against its OpenAPI schema with its references in place"))).toHaveLength(1);
    expect(Object.keys(contracts)).toEqual(["getFan"]);
  });

  it("validates a small Swagger 2.0 description dereferenced, with its 2.0 checks", { timeout: 600_000 }, async () => {
    const { messages } = await importSpec(swagger20(doublingDefinitions(2), [{ name: "id", in: "path", required: true, type: "string" }]));
    expect(messages.some((m) => m.includes("references in place"))).toBe(false);
    // A parameter of a path without that template is one of the parser's Swagger 2.0 checks, made only dereferenced.
    expect(messages.filter((m) => m.includes("does not validate against its OpenAPI schema"))).toHaveLength(1);
  });
});

describe("an OpenAPI 3.x description validated with its references in place", () => {
  it("still warns about a component that breaks the OpenAPI schema", async () => {
    const paths = { "/ok": { get: { operationId: "getOk", responses: { "200": { description: "ok" } } } } };
    const { messages } = await importSpec(openapi30(paths, { schemas: { Unused: { type: "strnig" } } }));
    expect(messages.filter((m) => m.includes("does not validate against its OpenAPI schema"))).toHaveLength(1);
  });

  it("finds a reference to the wrong kind of object where it reads it, not in the validation", async () => {
    const paths = {
      "/items": {
        get: { operationId: "listItems", parameters: [{ $ref: "#/components/schemas/Limit" }], responses: { "200": { description: "ok" } } },
      },
    };
    const { messages } = await importSpec(openapi30(paths, { schemas: { Limit: { type: "integer" } } }));
    expect(messages.some((m) => m.includes("does not validate"))).toBe(false);
    expect(messages).toContain("error /components/schemas/Limit: a parameter needs a `name` and an `in` of path, query, header or cookie");
  });
});

function doublingDefinitions(levels: number): Record<string, unknown> {
  return doublingComponents(levels).schemas as Record<string, unknown>;
}

/** A Swagger 2.0 document with one GET whose answer is `D0` of `definitions`, and the operation's `parameters`. */
function swagger20(definitions: Record<string, unknown>, parameters: unknown[] = []): Record<string, unknown> {
  const refs = JSON.parse(JSON.stringify(definitions).replaceAll("#/components/schemas/", "#/definitions/")) as Record<string, unknown>;
  return {
    swagger: "2.0",
    info: { title: "Fan", version: "1" },
    host: "fan.example",
    paths: {
      "/fan": { get: { operationId: "getFan", parameters, responses: { "200": { description: "ok", schema: { $ref: "#/definitions/D0" } } } } },
    },
    definitions: refs,
  };
}
