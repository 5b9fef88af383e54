/**
 * Never crash, never write half (issue #38): any string an API description
 * holds is written into a contract's YAML so that it reads back as the same
 * string, and a contract whose YAML would not is one located error for its
 * operation while the others are written.
 */
import fc from "fast-check";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { OpenApiTool } from "../../../generator/import/openapi/contract.js";
import { planFiles } from "../../../generator/import/openapi/write.js";
import { contractYaml } from "../../../generator/import/yaml.js";
import { CHAOS_SEED, runs, timeoutFor } from "../../fuzz/config.js";
import type { JsonObject } from "../../../generator/ir.js";
import { importSpec, OK_OBJECT, openapi30 } from "./helpers.js";

/** Twilio's queue descriptions (twilio_api_v2010.json): a leading space and more than 80 characters. */
const TWILIO_DESCRIPTION = " The URL we should call using the `voice_method` when the queue has a caller waiting to be connected to an agent.";
/** Short enough not to fold at the root, long enough to fold where it sits: in the output's properties. */
const MAX_SIZE = " The maximum number of calls that can be in the queue. The default is 1000 and the maximum is 5000.";
const QUEUE = { description: "ok", content: { "application/json": { schema: { type: "object", properties: { max_size: { type: "integer", description: MAX_SIZE } } } } } };

/** Pieces a YAML writer must keep: leading and trailing spaces, line breaks of every kind, comment and mapping markers, tabs, prose a block scalar folds, long words. */
const piece = fc.oneof(
  fc.constantFrom(" ", "  ", "\n", "\n\n", "\r\n", "\r", "\t", "#", " #", ": ", "- ", "? ", "'", '"', "\\", "\u2028", "\u2029", "\u0085", "\u00a0", "\ufeff", "|", ">", "&a", "*a", "!x", "%", "@", "`", "---", "...", "null", "~"),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.stringMatching(/^[A-Za-z]{60,160}$/),
  fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { minLength: 4, maxLength: 30 }).map((words) => words.join(" ")),
);
const text = fc.array(piece, { maxLength: 14 }).map((parts) => parts.join(""));

function contract(description: string, propertyDescription: string, fallback: string, choices: string[]): JsonObject {
  return {
    name: "fetch_queue",
    version: 1,
    description,
    effect: "read",
    openWorld: true,
    input: { type: "object", properties: { url: { type: "string", description: propertyDescription, default: fallback, enum: [fallback, ...choices] } }, additionalProperties: false },
    output: { type: "object", properties: { sid: { type: "string", description } }, additionalProperties: true },
  };
}

describe("strings through the YAML writer", () => {
  it("any description and default reads back as it was written", () => {
    const n = runs();
    fc.assert(
      fc.property(text, text, text, fc.uniqueArray(text, { maxLength: 3 }), (description, propertyDescription, fallback, choices) => {
        const written = contract(description, propertyDescription, fallback, choices.filter((c) => c !== fallback));
        const yaml = contractYaml({ name: "fetch_queue", contract: written, notes: [] }, "definitions");
        expect(parse(yaml)).toEqual(written);
      }),
      { seed: CHAOS_SEED, numRuns: n },
    );
  }, timeoutFor(runs()));

  it("Twilio's FetchQueue imports: a description starting with a space reads back exactly", async () => {
    const parameter = { name: "Sid", in: "path", required: true, description: TWILIO_DESCRIPTION, schema: { type: "string" } };
    const spec = openapi30({
      "/Queues/{Sid}.json": { get: { operationId: "FetchQueue", description: TWILIO_DESCRIPTION, parameters: [parameter], responses: { 200: QUEUE } } },
      "/Queues.json": { get: { operationId: "ListQueue", responses: { 200: OK_OBJECT } } },
    });
    const { contracts, messages } = await importSpec(spec);
    expect(messages).toEqual([]);
    expect(contracts.FetchQueue).toMatchObject({
      description: TWILIO_DESCRIPTION, input: { properties: { Sid: { description: TWILIO_DESCRIPTION } } }, output: { properties: { max_size: { description: MAX_SIZE } } },
    });
    expect(Object.keys(contracts).sort()).toEqual(["FetchQueue", "ListQueue"]);
  });

  it("a contract whose YAML does not read back is a located error for its operation; the others and the handlers are written without it", async () => {
    const { dir, result } = await importSpec(openapi30({ "/a": { get: { operationId: "good", responses: { 200: OK_OBJECT } } } }));
    const good = result.tools[0]!;
    // A value YAML cannot keep: an array hole is written as null.
    const bad: OpenApiTool = { ...good, name: "bad", contract: { ...good.contract, name: "bad", examples: [undefined] as unknown as JsonObject[] } };
    const unwritable: [string, string][] = [];
    const planned = await planFiles({
      cwd: dir, out: join(dir, "definitions"), generated: join(dir, "generated"), handlers: join(dir, "openapi-handlers.ts"), id: "shop", env: "SHOP",
      spec: result.spec!, specDisplay: "api.json", schemes: {}, tools: [good, bad], server: undefined, force: false,
      unwritable: (tool, message) => unwritable.push([tool.name, message]),
    });
    expect(unwritable).toEqual([["bad", expect.stringMatching(/does not read back as the contract at \/examples\/0 /)]]);
    const paths = (planned as { path: string; text: string | null }[]).map((f) => f.path.slice(dir.length + 1));
    expect(paths).toEqual(["definitions/good.yaml", "openapi-handlers.ts", "openapi-http.ts"]);
    const handlers = (planned as { path: string; text: string }[]).find((f) => f.path.endsWith("openapi-handlers.ts"))!.text;
    expect(handlers).toMatch(/good:/);
    expect(handlers).not.toMatch(/\bbad\b/);
  });
});
