/**
 * Differential: the schemas the server serves (from listTools), compiled by
 * an independent Ajv (Ajv2020 + ajv-formats "full", strict off), must agree
 * with `execute` on which inputs are valid. The one allowed class of
 * disagreement is a string whose format verdict differs between ajv-formats
 * and toolc's own checkers (runtime/formats.ts follows RFC 3339 etc. where
 * ajv-formats does not); each such case is counted, never silently passed.
 * Stock Ajv throws on objects with a `valueOf` or `toString` key under
 * uniqueItems/enum/const; there toolc must still answer with an envelope
 * that is not FAILED, and the case is counted.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { contracts, createServer, execute, type Handlers } from "../../generated/index.js";
import { formats as toolcFormats } from "../../generated/runtime/formats.js";
import { connectInMemory } from "../runtime/connect-sdk2.js";
import { runs, timeoutFor } from "./config.js";
import { demoHandlers } from "./fixtures/demo-handlers.js";

const ROOT = new URL("../../", import.meta.url).pathname;
import { shaped, TOOL_NAMES, type ToolName, wireable } from "./harness.js";

/** Strings near format boundaries, where the two implementations are likeliest to differ. */
const FORMAT_EDGES = [
  "2026-01-01 00:00:00Z", "2026-01-01T00:00:00", "2026-01-01t00:00:00z", "2026-02-30T00:00:00Z", "2026-01-01T23:59:60Z",
  "2026-01-01T00:00:00+0100", "2026-01-01T24:00:00Z", "0B6C8A8E-4D1C-4A8E-9D55-6F1F3C2A9B10", "urn:uuid:0b6c8a8e-4d1c-4a8e-9d55-6f1f3c2a9b10",
  "0b6c8a8e4d1c4a8e9d556f1f3c2a9b10", "{0b6c8a8e-4d1c-4a8e-9d55-6f1f3c2a9b10}",
];

const FORMAT_NAMES: Record<string, keyof typeof toolcFormats> = { "date-time": "date-time", uuid: "uuid", uri: "uri", date: "date" } as never;

function independentAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv, { mode: "full" });
  return ajv;
}

/** Whether any string in `value` gets different verdicts from ajv-formats and toolc for a format the tool uses. */
function formatExplained(value: unknown, used: string[], ajv: Ajv2020): boolean {
  const strings: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "string") strings.push(v);
    else if (v !== null && typeof v === "object") for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k]);
  };
  walk(value);
  return used.some((f) => {
    const theirs = ajv.formats[f] as ((s: string) => boolean) | RegExp | { validate: (s: string) => boolean } | undefined;
    const check = (s: string) => (typeof theirs === "function" ? theirs(s) : theirs instanceof RegExp ? theirs.test(s) : theirs?.validate(s));
    const ours = (toolcFormats as Record<string, (s: string) => boolean>)[FORMAT_NAMES[f] ?? f];
    return strings.some((s) => Boolean(check(s)) !== ours(s));
  });
}

function formatsUsed(schema: unknown): string[] {
  return [...JSON.stringify(schema).matchAll(/"format":"([^"]+)"/g)].map((m) => m[1]);
}

// JSON only: the served schemas are about JSON, and the executor fuzzer covers the rest.
const jsonWithEdges = (tool: ToolName, which: "inputSchema" | "outputSchema") => shaped(tool, which).map(wireable).chain((v) =>
  fc.oneof(fc.constant(v), fc.constantFrom(...FORMAT_EDGES).map((s) => JSON.parse(JSON.stringify(v ?? null).replace(/"(20\d\d-[^"]*|[0-9a-f]{8}-[^"]*)"/, JSON.stringify(s))) as unknown)),
);
const withEdges = (tool: ToolName) => jsonWithEdges(tool, "inputSchema");
const outputWithEdges = (tool: ToolName) => jsonWithEdges(tool, "outputSchema");

const N = runs();

/**
 * The schemas the server serves in tools/list (which must equal the
 * contracts'), each compiled by the independent Ajv.
 */
async function servedAndCompiled(which: "inputSchema" | "outputSchema") {
  const { client, close } = await connectInMemory(createServer(demoHandlers));
  const { tools } = await client.listTools();
  await close();
  const ajv = independentAjv();
  const served: Record<string, unknown> = Object.fromEntries(tools.map((t) => [t.name, t[which] ?? {}]));
  for (const name of TOOL_NAMES) expect(served[name]).toEqual(contracts[name][which]);
  const validators = Object.fromEntries(Object.entries(served).map(([name, schema]) => [name, ajv.compile(schema as object)]));
  return { ajv, served, validators };
}

describe("differential fuzz", () => {
  it(`execute and an independent Ajv agree on input validity (${N} runs)`, async () => {
    const { ajv, served, validators } = await servedAndCompiled("inputSchema");
    const tally = { agree: 0, formatExplained: 0, theirsThrew: 0 };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOOL_NAMES).chain((t) => fc.tuple(fc.constant(t), withEdges(t))), async ([tool, input]) => {
        const ours = await execute(tool, input, demoHandlers, { sleep: async () => {} });
        const oursValid = ours.ok || ours.code !== "INVALID_INPUT";
        let theirsValid: boolean;
        try {
          theirsValid = validators[tool](structuredClone(input));
        } catch {
          // Stock Ajv's fast-deep-equal calls a `valueOf`/`toString` key as a method; toolc's runtime/equal.ts does not.
          expect({ tool, input, code: ours.ok ? "OK" : ours.code }).not.toMatchObject({ code: "FAILED" });
          return void tally.theirsThrew++;
        }
        if (oursValid === theirsValid) return void tally.agree++;
        expect({ tool, input, oursValid, formatExplained: formatExplained(input, formatsUsed(served[tool]), ajv) }).toMatchObject({ formatExplained: true });
        tally.formatExplained++;
      }),
      { numRuns: N },
    );
    console.log(`differential fuzz: ${JSON.stringify(tally)}`);
  }, timeoutFor(N, 10));

  it(`execute and an independent Ajv agree on output validity (${N} runs)`, async () => {
    const { ajv, served, validators } = await servedAndCompiled("outputSchema");
    const inputs = validInputs();
    const tally = { agree: 0, formatExplained: 0 };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOOL_NAMES).chain((t) => fc.tuple(fc.constant(t), outputWithEdges(t))), async ([tool, output]) => {
        // The handler returns a copy, so the independent Ajv sees exactly what the handler returned.
        const handlers = { [tool]: async () => structuredClone(output) } as Handlers;
        const ours = await execute(tool, structuredClone(inputs[tool]), handlers, { sleep: async () => {} });
        expect(ours.ok || ours.code === "INVALID_OUTPUT").toBe(true);
        const theirsValid = validators[tool](structuredClone(output));
        if (ours.ok === theirsValid) {
          if (ours.ok) expect(ours.data).toEqual(output);
          return void tally.agree++;
        }
        expect({ tool, output, oursValid: ours.ok, formatExplained: formatExplained(output, formatsUsed(served[tool]), ajv) }).toMatchObject({ formatExplained: true });
        tally.formatExplained++;
      }),
      { numRuns: N },
    );
    console.log(`differential fuzz (outputs): ${JSON.stringify(tally)}`);
  }, timeoutFor(N, 10));
});

/** Each demo tool's first example input, which its contract accepts. */
function validInputs(): Record<ToolName, unknown> {
  const out = {} as Record<ToolName, unknown>;
  for (const tool of TOOL_NAMES) {
    const doc = parse(readFileSync(join(ROOT, "definitions", `${tool}.yaml`), "utf8")) as { examples: { input: unknown; invalid?: unknown }[] };
    out[tool] = doc.examples.find((e) => e.invalid === undefined)?.input;
  }
  return out;
}
