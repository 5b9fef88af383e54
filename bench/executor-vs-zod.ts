/**
 * toolc's generated executor against the executor people write by hand with
 * zod: safeParse the input, run the handler, safeParse the output, and build
 * an envelope. Same contract (bench/definitions/list_invoices.yaml), same
 * handler output of 20 invoices with date-times, in one process.
 */
import { z } from "zod";
import { compareAsync } from "./lib/measure.js";

const STATUS = ["draft", "open", "paid", "void"] as const;
const Invoice = z.strictObject({
  id: z.string().regex(/^in_[A-Za-z0-9]+$/),
  status: z.enum(STATUS),
  currency: z.string().regex(/^[A-Z]{3}$/),
  totalCents: z.number().int().min(0),
  issuedAt: z.iso.datetime({ offset: true }),
  dueAt: z.iso.datetime({ offset: true }),
  paidAt: z.iso.datetime({ offset: true }).nullable(),
  lines: z.number().int().min(1),
});
const Input = z.strictObject({
  customerId: z.string().min(1).max(64),
  status: z.enum(STATUS).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  limit: z.number().int().min(1).max(100).default(20),
});
const Output = z.strictObject({ customerId: z.string(), invoices: z.array(Invoice), nextCursor: z.string().nullable() });

const invoice = (i: number) => ({
  id: `in_${i}`,
  status: STATUS[i % 4],
  currency: "EUR",
  totalCents: 1000 + i,
  issuedAt: `2026-03-${String(1 + (i % 28)).padStart(2, "0")}T09:00:00Z`,
  dueAt: `2026-04-${String(1 + (i % 28)).padStart(2, "0")}T09:00:00+02:00`,
  paidAt: i % 2 === 0 ? `2026-03-${String(2 + (i % 27)).padStart(2, "0")}T10:15:00.250Z` : null,
  lines: 1 + (i % 5),
});
export const INVOICES = { customerId: "cus_1", invoices: Array.from({ length: 20 }, (_, i) => invoice(i)), nextCursor: "c_2" };
const BAD_OUTPUT = { ...INVOICES, invoices: INVOICES.invoices.map((v, i) => (i === 13 ? { ...v, dueAt: "2026-02-30T09:00:00Z" } : v)) };

type Envelope = { ok: true; data: unknown } | { ok: false; code: string; issues?: { path: string; message: string }[] };
const path = (p: readonly PropertyKey[]) => p.map(String).join(".");

/** The hand-written zod executor: what toolc's generated one replaces. */
async function zodExecute(input: unknown, handler: (input: unknown) => Promise<unknown>): Promise<Envelope> {
  const parsed = Input.safeParse(input);
  if (!parsed.success) return { ok: false, code: "INVALID_INPUT", issues: parsed.error.issues.map((i) => ({ path: path(i.path), message: i.message })) };
  try {
    const checked = Output.safeParse(await handler(parsed.data));
    if (!checked.success) return { ok: false, code: "INVALID_OUTPUT" };
    return { ok: true, data: checked.data };
  } catch {
    return { ok: false, code: "FAILED" };
  }
}

type Execute = (tool: "list_invoices", input: unknown, handlers: Record<string, unknown>) => Promise<{ ok: boolean; code?: string }>;

const CALLS = {
  "valid call": { input: { customerId: "cus_1", status: "paid", since: "2026-01-01T00:00:00Z" }, output: INVOICES, want: "OK" },
  "invalid input (customerId: 42, limit: 0)": { input: { customerId: 42, limit: 0 }, output: INVOICES, want: "INVALID_INPUT" },
  "invalid output (an impossible dueAt)": { input: { customerId: "cus_1" }, output: BAD_OUTPUT, want: "INVALID_OUTPUT" },
} as const;

const WARMUP = 2000;
const ROUNDS = 20000;

/**
 * Fresh copies of `input`, one per call, made before anything is timed: each
 * call gets an input no earlier call has touched, and the cost of copying it
 * (a structuredClone takes about as long as a whole invalid call) is charged
 * to neither side.
 */
function freshInputs(input: unknown, count: number): () => unknown {
  const pool = Array.from({ length: count }, () => structuredClone(input));
  let next = 0;
  return () => pool[next++ % count];
}

/** Median µs per call for each case; both sides must give the same verdict first. */
export async function benchExecutorVsZod(execute: Execute): Promise<{ name: string; toolc: number; zod: number }[]> {
  const rows = [];
  for (const [name, c] of Object.entries(CALLS)) {
    const handler = async () => c.output;
    const toolcInput = freshInputs(c.input, WARMUP + ROUNDS + 1);
    const zodInput = freshInputs(c.input, WARMUP + ROUNDS + 1);
    const toolc = () => execute("list_invoices", toolcInput(), { list_invoices: handler });
    const zod = () => zodExecute(zodInput(), handler);
    const verdicts = [(await toolc()).code ?? "OK", (await zod()) as Envelope].map((v) => (typeof v === "string" ? v : v.ok ? "OK" : v.code));
    if (verdicts.some((v) => v !== c.want)) throw new Error(`${name}: expected ${c.want}, got toolc ${verdicts[0]}, zod ${verdicts[1]}`);
    const ms = await compareAsync({ toolc, zod }, { warmup: WARMUP, rounds: ROUNDS });
    rows.push({ name, toolc: ms.toolc * 1000, zod: ms.zod * 1000 });
  }
  return rows;
}
