/**
 * Validators and executor overhead: toolc's generated validators against
 * zod 4 safeParse (hand-written equivalents), Ajv compiled at run time with
 * ajv-formats full, and TypeBox's compiled checker, on the same data.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { FormatRegistry, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { z } from "zod";
import { compareSync, consume, median } from "./lib/measure.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020, opts?: unknown) => void;

const STATUSES = ["pending", "paid", "shipped", "cancelled"] as const;
const order = (i: number) => ({
  id: `ord_${i}`,
  status: STATUSES[i % 4],
  amountCents: 100 * i,
  placedAt: `2026-03-${String(1 + (i % 28)).padStart(2, "0")}T09:26:53Z`,
});
const orders = Array.from({ length: 50 }, (_, i) => order(i));

export const CASES = {
  "input valid": { kind: "input", data: { customerId: "cus_123", includeHistory: true }, valid: true },
  "input invalid (customerId: 42)": { kind: "input", data: { customerId: 42 }, valid: false },
  "output 50 orders valid": { kind: "output", data: { found: true, customerId: "cus_123", orders }, valid: true },
  "output 50 orders, one bad": {
    kind: "output",
    data: { found: true, customerId: "cus_123", orders: orders.map((o, i) => (i === 37 ? { ...o, status: "lost" } : o)) },
    valid: false,
  },
} as const;

function zodSchemas() {
  const Order = z.strictObject({
    id: z.string().regex(/^ord_[A-Za-z0-9]+$/),
    status: z.enum(STATUSES),
    amountCents: z.number().int().min(0),
    placedAt: z.iso.datetime({ offset: true }),
  });
  return {
    input: z.strictObject({ customerId: z.string().min(1), includeHistory: z.boolean().default(false), requestId: z.uuid().optional() }),
    output: z.strictObject({ found: z.boolean(), customerId: z.string(), orders: z.array(Order) }),
  };
}

function typeboxCheckers(formats: Record<string, (s: string) => boolean>) {
  for (const name of ["date-time", "uuid"]) FormatRegistry.Set(name, formats[name]);
  const Order = Type.Object(
    {
      id: Type.String({ pattern: "^ord_[A-Za-z0-9]+$" }),
      status: Type.Union(STATUSES.map((s) => Type.Literal(s))),
      amountCents: Type.Integer({ minimum: 0 }),
      placedAt: Type.String({ format: "date-time" }),
    },
    { additionalProperties: false },
  );
  return {
    input: TypeCompiler.Compile(
      Type.Object(
        {
          customerId: Type.String({ minLength: 1 }),
          includeHistory: Type.Optional(Type.Boolean({ default: false })),
          requestId: Type.Optional(Type.String({ format: "uuid" })),
        },
        { additionalProperties: false },
      ),
    ),
    output: TypeCompiler.Compile(Type.Object({ found: Type.Boolean(), customerId: Type.String(), orders: Type.Array(Order) }, { additionalProperties: false })),
  };
}

/** Ajv at run time, as most projects use it: the served schemas, allErrors like ours, ajv-formats full. */
function runtimeAjv(contract: { inputSchema: object; outputSchema: object }) {
  const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: false });
  addFormats(ajv, { mode: "full" });
  return { input: ajv.compile(contract.inputSchema), output: ajv.compile(contract.outputSchema) };
}

export interface ValidatorRow {
  readonly name: string;
  readonly ns: Record<string, number>;
}

type Fn = (data: unknown) => boolean;

/** Every side must agree on every case before anything is timed. */
function sides(
  gen: { validateInput: Fn; validateOutput: Fn },
  contract: { inputSchema: object; outputSchema: object },
  formats: Record<string, (s: string) => boolean>,
) {
  const zs = zodSchemas();
  const tb = typeboxCheckers(formats);
  const ajv = runtimeAjv(contract);
  return {
    toolc: { input: gen.validateInput, output: gen.validateOutput },
    zod: { input: (d: unknown) => zs.input.safeParse(d).success, output: (d: unknown) => zs.output.safeParse(d).success },
    "ajv runtime": { input: ajv.input as Fn, output: ajv.output as Fn },
    typebox: { input: (d: unknown) => tb.input.Check(d), output: (d: unknown) => tb.output.Check(d) },
  };
}

export function benchValidators(
  gen: { validateInput: Fn; validateOutput: Fn },
  contract: { inputSchema: object; outputSchema: object },
  formats: Record<string, (s: string) => boolean>,
): ValidatorRow[] {
  const all = sides(gen, contract, formats);
  const rows: ValidatorRow[] = [];
  for (const [name, c] of Object.entries(CASES)) {
    const candidates: Record<string, () => unknown> = {};
    for (const [side, v] of Object.entries(all)) {
      const fn = v[c.kind];
      const data = structuredClone(c.data);
      if (fn(data) !== c.valid) throw new Error(`${side} disagrees on "${name}"`);
      candidates[side] = () => fn(data);
    }
    rows.push({ name, ns: compareSync(candidates) });
  }
  return rows;
}

/** Sanity, not a test: impossible dates and malformed uuids are rejected by the generated validators. */
export function formatSanity(gen: { validateInput: Fn; validateOutput: Fn }): string {
  const badDate = { found: true, customerId: "c", orders: [{ ...order(1), placedAt: "2026-02-30T10:00:00Z" }] };
  const badUuid = { customerId: "c", requestId: "2eb8aa08-aa98-11ea-b4aa-73b441d1638" };
  const goodUuid = { customerId: "c", requestId: "2eb8aa08-aa98-11ea-b4aa-73b441d16380" };
  const ok =
    !gen.validateOutput(badDate) && !gen.validateInput(badUuid) && gen.validateInput(goodUuid) && gen.validateOutput(CASES["output 50 orders valid"].data);
  if (!ok) throw new Error("format sanity failed: the generated validators accept an impossible date-time or a malformed uuid");
  return "formats: rejects 2026-02-30T10:00:00Z and a malformed uuid, accepts valid ones: ok";
}

type Execute = (tool: "get_order", input: unknown, handlers: Record<string, unknown>) => Promise<{ ok: boolean }>;

/** ns per call: full execute with a trivial handler returning `output`, against bare input + output validation. */
export async function benchExecutor(
  execute: Execute,
  gen: { validateInput: Fn; validateOutput: Fn },
  output: unknown,
): Promise<{ execute: number; bare: number }> {
  const handlers = { get_order: async () => output };
  const input = () => ({ customerId: "cus_123" });
  if (!(await execute("get_order", input(), handlers)).ok) throw new Error("execute failed");
  const timeAsync = async (n: number): Promise<number> => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) consume(await execute("get_order", input(), handlers));
    return Number(process.hrtime.bigint() - t0) / n;
  };
  const timeBare = async (n: number): Promise<number> => {
    const t0 = process.hrtime.bigint();
    // Same shape of work minus the executor: a fresh input, an awaited handler, both validations.
    for (let i = 0; i < n; i++) {
      const data = input();
      consume(gen.validateInput(data) && gen.validateOutput(await handlers.get_order()));
    }
    return Number(process.hrtime.bigint() - t0) / n;
  };
  await timeAsync(20000);
  await timeBare(20000);
  const e: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < 9; r++) {
    e.push(await timeAsync(20000));
    b.push(await timeBare(20000));
  }
  return { execute: median(e), bare: median(b) };
}

/** The executor's outputs: one order (its fixed cost per call) and fifty (what it adds per value). */
export const EXECUTOR_OUTPUTS = {
  "1 order": { found: true, customerId: "cus_123", orders: orders.slice(0, 1) },
  "50 orders": CASES["output 50 orders valid"].data,
} as const;
