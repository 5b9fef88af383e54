/**
 * Each distinct tool schema is compiled by Ajv once per generate (issue #42):
 * normalize compiles it as the shipped validators are compiled, and the emit
 * prints Ajv's output from that compile; a schema several tools share is
 * compiled once. Read through the real per-tool compile (LocalToolCompiler),
 * whose files are the same as a compile of each tool alone.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { releaseSharedAjv } from "../../generator/ajv-shared.js";
import { forgetStandaloneOutputs, MEMO_CHARS, standaloneCompiles, standaloneModule } from "../../generator/emit/validators.js";
import type { Diagnostic } from "../../generator/ir.js";
import type { DefinitionText } from "../../generator/load/files.js";
import { LocalToolCompiler, type ToolOutcome } from "../../generator/pipeline/compile-tool.js";
import { compileOptionsOf, planFromOptions } from "../../generator/plan/index.js";
import { ROOT } from "../compiler/helpers.js";

const plan = planFromOptions({ definitions: "definitions", out: "generated", cwd: ROOT });

/** A tool contract whose output is `output` (YAML flow text), with an input of its own and `extra` lines. */
function tool(name: string, output: string, extra = ""): DefinitionText {
  const text = `name: ${name}
version: 1
description: Reads ${name}.
effect: read
input:
  type: object
  properties:
    ${name}Id: { type: string, maxLength: 40 }
    limit: { type: integer, minimum: 1, default: 10 }
  required: [${name}Id]
output: ${output}
${extra}`;
  return { source: `${name}.yaml`, display: `definitions/${name}.yaml`, text };
}

const ORDER = "{ type: object, properties: { id: { type: string }, total: { type: number, minimum: 0 } }, required: [id, total] }";

async function compile(tools: readonly DefinitionText[]): Promise<ToolOutcome[]> {
  const compiler = new LocalToolCompiler();
  await compiler.classify(tools);
  const outcomes = await compiler.compile([], tools, compileOptionsOf(plan));
  await compiler.close();
  return outcomes;
}

const diagnosticsOf = (outcomes: readonly ToolOutcome[]): Diagnostic[] => outcomes.flatMap((o) => o.diagnostics);
const partOf = (outcome: ToolOutcome | undefined): string => {
  if (outcome === undefined || "failed" in outcome) throw new Error("the tool did not compile");
  return outcome.files.find((f) => f.path.endsWith(".part.json"))!.text;
};

beforeEach(() => {
  forgetStandaloneOutputs();
  releaseSharedAjv();
});

describe("each distinct tool schema compiled once", () => {
  it("compiles the two inputs and the one output two tools share: three compiles for the four validators", async () => {
    const outcomes = await compile([tool("order", ORDER), tool("invoice", ORDER)]);
    expect(diagnosticsOf(outcomes)).toEqual([]);
    // Normalize compiled each once; the emit printed what those compiles made, and the second output was the first's.
    expect(standaloneCompiles()).toMatchObject({ compiled: 3, held: 3 });
    const [order, invoice] = outcomes.map(partOf);
    const validateOutput = (part: string) => (JSON.parse(part) as { validators: { bodies: { exportName: string; code: string }[] } }).validators.bodies[1];
    expect(validateOutput(order!)).toEqual(validateOutput(invoice!));
  });

  it("writes the same code as a compile of each tool alone, in any order", async () => {
    const together = (await compile([tool("order", ORDER), tool("invoice", ORDER)])).map(partOf);
    forgetStandaloneOutputs();
    const invoiceAlone = partOf((await compile([tool("invoice", ORDER)]))[0]);
    forgetStandaloneOutputs();
    const orderAlone = partOf((await compile([tool("order", ORDER)]))[0]);
    expect(together).toEqual([orderAlone, invoiceAlone]);
  });

  it("checks examples with the validators' own functions, on a copy, also when the schema was compiled for an earlier tool", async () => {
    const examples = `examples:
  - name: a negative total
    input: { orderId: o_1 }
    output: { id: o_1, total: -1 }
  - name: a long id
    input: { orderId: "${"x".repeat(41)}" }
    invalid: [orderId]
`;
    // The second tool's schemas are the first's: its examples are checked with a function compiled for them then.
    const outcomes = await compile([tool("order", ORDER, examples), { ...tool("order", ORDER, examples), source: "again/order.yaml" }]);
    const messages = outcomes.map((o) => o.diagnostics.map((d) => `${d.line}: ${d.message}`));
    expect(messages[0]).toEqual([expect.stringMatching(/^15: example "a negative total": output breaks the output schema: total must be >= 0$/)]);
    expect(messages[1]).toEqual(messages[0]);
    expect(standaloneCompiles().held).toBe(2);
  });

  it("locates a schema Ajv refuses in the YAML, as before", async () => {
    const outcomes = await compile([tool("order", "{ type: object, properties: { id: { type: string, minimum: 1 } } }")]);
    expect(diagnosticsOf(outcomes).map((d) => [d.code, d.line, d.message])).toEqual([
      ["TC031", 11, expect.stringMatching(/^schema rejected: missing type "number" for keyword "minimum" at "#\/properties\/id"/)],
    ]);
  });

  it("keeps at most its bound of Ajv's output, the least recently used going first", () => {
    const schema = (i: number) => ({ type: "object", properties: { [`p${i}`]: { type: "string" } } });
    const compileOf = (i: number) => standaloneModule([{ exportName: "validate", schema: schema(i), applyDefaults: false }]);
    compileOf(0);
    // Room for three outputs (the four schemas' outputs are the same size).
    forgetStandaloneOutputs(3 * standaloneCompiles().chars);
    for (const i of [0, 1, 2, 0, 3]) compileOf(i);
    // 0 was used again before 3 came: 1 went.
    expect(standaloneCompiles()).toMatchObject({ compiled: 4, held: 3 });
    compileOf(0);
    compileOf(1);
    expect(standaloneCompiles()).toMatchObject({ compiled: 5, held: 3 });
    expect(MEMO_CHARS).toBeGreaterThan(0);
  });
});
