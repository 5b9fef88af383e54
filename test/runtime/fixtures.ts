/**
 * Hand-built contracts compiled with a real Ajv, shaped like the ones the
 * generator emits, plus a fake order service that records every effect so
 * tests can prove a write was never duplicated.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { JsonObject } from "../../generator/ir.js";
import { sensitivePaths } from "../../generator/normalize/sensitive.js";
import type { JsonSchemaObject, RetryPolicy, SensitivePaths, ToolContract } from "../../generator/runtime/contract.js";
import { TransientError } from "../../generator/runtime/errors.js";
import type { HandlersFor } from "../../generator/runtime/types.js";

function makeAjv(useDefaults: boolean): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, useDefaults, strict: true, strictRequired: false, allowUnionTypes: true, messages: false });
  addFormats.default(ajv);
  ajv.addKeyword({ keyword: "x-sensitive", schemaType: "boolean" });
  return ajv;
}

const inputAjv = makeAjv(true);
const outputAjv = makeAjv(false);

interface Spec<Reason extends string> {
  name: string;
  effect: "read" | "write" | "destructive";
  idempotent?: boolean;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  idempotencyKey?: string;
  errors?: Record<Reason, string>;
  input: JsonSchemaObject;
  output: JsonSchemaObject;
}

/** Where a schema's x-sensitive values are, as toolc's normalize phase works it out. */
export function sensitiveOf(schema: JsonSchemaObject, purpose: "input" | "output"): SensitivePaths {
  const analysis = sensitivePaths(schema as JsonObject, purpose);
  if (!analysis.ok) throw new Error(analysis.problem);
  return analysis.paths;
}

export function defineContract<I, R, O, Reason extends string = never>(spec: Spec<Reason>): ToolContract<I, R, O, Reason> {
  const idempotent = spec.idempotent ?? spec.effect === "read";
  return {
    name: spec.name,
    version: 2,
    title: `Title of ${spec.name}`,
    description: `Description of ${spec.name}.`,
    effect: spec.effect,
    idempotent,
    timeoutMs: spec.timeoutMs ?? 1000,
    retry: { attempts: 1, backoffMs: 10, maxBackoffMs: 100, budgetMs: 10_000, ...spec.retry },
    ...(spec.idempotencyKey === undefined ? {} : { idempotencyKey: spec.idempotencyKey }),
    errors: spec.errors ?? ({} as Record<Reason, string>),
    inputSchema: spec.input,
    outputSchema: spec.output,
    annotations: {
      title: `Title of ${spec.name}`,
      readOnlyHint: spec.effect === "read",
      destructiveHint: spec.effect === "destructive",
      idempotentHint: idempotent,
      openWorldHint: false,
    },
    meta: { "toolc/version": 2 },
    sensitive: { input: sensitiveOf(spec.input, "input"), output: sensitiveOf(spec.output, "output") },
    validators: { validateInput: inputAjv.compile(spec.input), validateOutput: outputAjv.compile(spec.output) },
  };
}

export const SECRET = "sk_live_9f8e7d6c5b4a";

const orderSchema = {
  type: "object",
  properties: { id: { type: "string" }, status: { enum: ["paid", "open", "refunded"] } },
  required: ["id", "status"],
  additionalProperties: false,
};

export type Order = { id: string; status: "paid" | "open" | "refunded" };
export type GetOrderInput = { customerId: string; includeHistory?: boolean; apiKey?: string };
export type GetOrderOutput = { found: boolean; customerId: string; orders: Order[] };

export const getOrder = defineContract<GetOrderInput, Required<Omit<GetOrderInput, "apiKey">> & { apiKey?: string }, GetOrderOutput, "CUSTOMER_BLOCKED">({
  name: "get_order",
  effect: "read",
  timeoutMs: 50,
  retry: { attempts: 3, backoffMs: 10, maxBackoffMs: 40 },
  errors: { CUSTOMER_BLOCKED: "The customer is blocked; ask a human." },
  input: {
    type: "object",
    properties: {
      customerId: { type: "string", minLength: 1 },
      includeHistory: { type: "boolean", default: false },
      apiKey: { type: "string", "x-sensitive": true },
    },
    required: ["customerId"],
    additionalProperties: false,
  },
  output: {
    type: "object",
    properties: { found: { type: "boolean" }, customerId: { type: "string" }, orders: { type: "array", items: orderSchema } },
    required: ["found", "customerId", "orders"],
    additionalProperties: false,
  },
});

export type DeleteOrderInput = { orderId: string };
export type DeleteOrderOutput = { deleted: boolean };

export const deleteOrder = defineContract<DeleteOrderInput, DeleteOrderInput, DeleteOrderOutput, "ORDER_LOCKED">({
  name: "delete_order",
  effect: "destructive",
  timeoutMs: 50,
  retry: { attempts: 3 },
  errors: { ORDER_LOCKED: "The order is locked." },
  input: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"], additionalProperties: false },
  output: { type: "object", properties: { deleted: { type: "boolean" } }, required: ["deleted"], additionalProperties: false },
});

export type ChargeInput = { requestId: string; amountCents: number; card: { number: string; cvc: string } };
export type ChargeOutput = { chargeId: string };

export const chargeCard = defineContract<ChargeInput, ChargeInput, ChargeOutput>({
  name: "charge_card",
  effect: "write",
  idempotencyKey: "requestId",
  timeoutMs: 50,
  retry: { attempts: 3, backoffMs: 5, maxBackoffMs: 20 },
  input: {
    type: "object",
    properties: {
      requestId: { type: "string", minLength: 1 },
      amountCents: { type: "integer", minimum: 1 },
      card: {
        type: "object",
        properties: { number: { type: "string", "x-sensitive": true }, cvc: { type: "string", "x-sensitive": true } },
        required: ["number", "cvc"],
        additionalProperties: false,
      },
    },
    required: ["requestId", "amountCents", "card"],
    additionalProperties: false,
  },
  output: { type: "object", properties: { chargeId: { type: "string" } }, required: ["chargeId"], additionalProperties: false },
});

export type TagInput = { tags: { [key: string]: string } };

/** An open object, so a "__proto__" key is allowed through to the handler as data. */
export const tagResource = defineContract<TagInput, TagInput, { count: number }>({
  name: "tag_resource",
  effect: "write",
  idempotent: true,
  input: {
    type: "object",
    properties: { tags: { type: "object", additionalProperties: { type: "string" } } },
    required: ["tags"],
    additionalProperties: false,
  },
  output: { type: "object", properties: { count: { type: "integer" } }, required: ["count"], additionalProperties: false },
});

export const contracts = { get_order: getOrder, delete_order: deleteOrder, charge_card: chargeCard, tag_resource: tagResource } as const;
export type Contracts = typeof contracts;

/** A fake backend: every effect it applies is recorded, and failures can be scripted per call. */
export class FakeOrders {
  readonly calls: string[] = [];
  readonly deleted: string[] = [];
  readonly charges = new Map<string, number>();
  /** Scripted failures, consumed one per call. */
  failures: (Error | "hang")[] = [];

  async call(what: string, signal?: AbortSignal): Promise<void> {
    this.calls.push(what);
    const next = this.failures.shift();
    if (next === "hang") await new Promise<never>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason as Error)));
    else if (next !== undefined) throw next;
  }
}

/** Handlers written only against the public API, as an application would. */
export function makeHandlers(service: FakeOrders): HandlersFor<Contracts> {
  return {
    get_order: async (input, ctx) => {
      if (input.customerId === "cus_blocked") return ctx.reject("CUSTOMER_BLOCKED", "Customer is blocked");
      await service.call(`get:${input.customerId}:${String(input.includeHistory)}`, ctx.signal);
      return { found: true, customerId: input.customerId, orders: [{ id: "ord_1", status: "paid" }] };
    },
    delete_order: async (input, ctx) => {
      // The effect is applied before the dependency fails: exactly the case retries must not repeat.
      service.deleted.push(input.orderId);
      await service.call(`delete:${input.orderId}`, ctx.signal);
      return { deleted: true };
    },
    charge_card: async (input, ctx) => {
      // Deduplicated by idempotency key, as a real payment API does.
      if (ctx.idempotencyKey !== undefined && !service.charges.has(ctx.idempotencyKey)) service.charges.set(ctx.idempotencyKey, input.amountCents);
      await service.call(`charge:${input.requestId}`, ctx.signal);
      return { chargeId: `ch_${input.requestId}` };
    },
    tag_resource: (input) => ({ count: Object.keys(input.tags).length }),
  };
}

export { TransientError };
