/**
 * The handlers module's factory laid out without prettier
 * (generator/import/openapi/handlers-layout.ts) is prettier's text: on
 * arbitrary tool names against prettier itself, and in a whole import, where
 * prettier leaves the factory as it is.
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { FORMAT_OPTIONS } from "../../../generator/format/prettier.js";
import { factoryLayout } from "../../../generator/import/openapi/handlers-layout.js";
import { literal, propertyKey } from "../../../generator/printer/literal.js";
import { runs, timeoutFor } from "../../fuzz/config.js";
import { importSpec, openapi30, type Obj } from "./helpers.js";

const PRETTIER = { ...FORMAT_OPTIONS, parser: "typescript" } as const;

/** The factory as handlers.ts prints it before layout. */
function source(names: readonly string[]): string {
  const handlers = names.map((n) => `    ${propertyKey(n)}: (input, ctx) => http.call(operations[${literal(n)}], input, ctx),`);
  return `/** The tools this API serves, each with its generated handler. */
export type OpenApiHandlers = Required<Pick<Handlers, ${names.length === 0 ? "never" : names.map((n) => literal(n)).join(" | ")}>>;

export function createOpenApiHandlers(options: HttpApiOptions = {}): OpenApiHandlers {
  const http = createHttpApi(description, options, { TransientError });
  return {
${handlers.join("\n")}
  };
}`;
}

const name = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/) },
  { weight: 8, arbitrary: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,55}$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{55,69}$/) },
);

describe("the handlers factory laid out without prettier", () => {
  it("is prettier's layout of the factory, for any tool names it lays out", async () => {
    let laidOut = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(name, { minLength: 6, maxLength: 30 }), async (names) => {
        const text = source(names);
        const layout = factoryLayout(text, names);
        if (layout === undefined) return;
        laidOut++;
        expect(`${layout}\n`).toBe(await format(text, PRETTIER));
      }),
      { numRuns: runs(2) },
    );
    expect(laidOut).toBeGreaterThan(runs(2) / 5);
  }, timeoutFor(runs(2), 50));

  it("leaves to prettier a short union, a name only prettier quotes its way, and a handler too long for its layouts", () => {
    expect(factoryLayout(source(["a", "b"]), ["a", "b"])).toBeUndefined();
    const many = Array.from({ length: 20 }, (_, i) => `tool_${i}`);
    expect(factoryLayout(source(many), many)).toBeDefined();
    expect(factoryLayout(source([...many, "it's"]), [...many, "it's"])).toBeUndefined();
    const long = "x".repeat(70);
    expect(factoryLayout(source([...many, long]), [...many, long])).toBeUndefined();
    // A group's handler picks its member: another source, left to prettier.
    expect(factoryLayout(source(many).replace("operations[\"tool_3\"]", 'operations["tool_3"].group[input.operation]'), many)).toBeUndefined();
  });

  it("in an import of many operations, is the text prettier leaves as it is", async () => {
    const paths: Obj = {};
    for (let i = 0; i < 40; i++) paths[`/items/${i}`] = { get: { operationId: `${"list".repeat(1 + (i % 12))}_items_${i}`, responses: { 200: { description: "ok" } } } };
    const { dir, result } = await importSpec(openapi30(paths));
    expect(result.problems.filter((p) => p.severity === "error")).toEqual([]);
    const handlers = readFileSync(join(dir, "openapi-handlers.ts"), "utf8");
    const factory = handlers.slice(handlers.indexOf("/** The tools this API serves"));
    expect(factory).toMatch(/^ {4}\| "list_items_0"$/m);
    expect(await format(factory, PRETTIER)).toBe(factory);
  });
});
