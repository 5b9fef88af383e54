/**
 * Synthetic contracts for the scale benchmarks: N tools that look like real
 * ones (strings with bounds, enums, integers with defaults, date-times,
 * arrays of a shared named type), so codegen and start-up costs are typical
 * rather than best-case.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const TYPES = `types:
  Status:
    enum: [pending, active, suspended, closed]
  Item:
    type: object
    properties:
      id: { type: string, pattern: "^it_[A-Za-z0-9]+$" }
      status: { $ref: "#/types/Status" }
      quantity: { type: integer, minimum: 0 }
      updatedAt: { type: string, format: date-time }
    required: [id, status]
`;

const EFFECTS = ["read", "write", "destructive"] as const;

/** One tool contract's YAML; `salt` changes a description so a single edit can be simulated. */
export function syntheticTool(i: number, salt = ""): string {
  const effect = EFFECTS[i % 3];
  const write = effect !== "read";
  return `name: tool_${String(i).padStart(4, "0")}
version: ${1 + (i % 4)}
title: Tool ${i}
description: Synthetic tool number ${i}${salt}.
effect: ${effect}
${write ? "idempotencyKey: requestId\nretry: { attempts: 2, backoffMs: 50 }\n" : ""}input:
  type: object
  properties:
${write ? "    requestId: { type: string, minLength: 8 }\n" : ""}    accountId: { type: string, minLength: 1, maxLength: 64, description: Account id }
    status: { $ref: "types.yaml#/Status" }
    limit: { type: integer, minimum: 1, maximum: 100, default: 20 }
    since: { type: string, format: date-time }
    tags: { type: array, items: { type: string, maxLength: 32 }, maxItems: 10 }
  required: [accountId${write ? ", requestId" : ""}]
output:
  type: object
  properties:
    accountId: { type: string }
    total: { type: integer, minimum: 0 }
    items: { type: array, items: { $ref: "types.yaml#/Item" } }
    nextCursor: { type: [string, "null"] }
  required: [accountId, total, items]
errors:
  ACCOUNT_CLOSED: { description: The account is closed. }
examples:
  - name: one item
    input: { accountId: acc_${i}${write ? ", requestId: req_00000001" : ""} }
    output: { accountId: acc_${i}, total: 1, items: [{ id: it_1, status: active }] }
`;
}

/** Writes `count` synthetic tools plus their shared types file into `dir`. */
export function writeSyntheticDefinitions(dir: string, count: number): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "types.yaml"), TYPES);
  for (let i = 0; i < count; i++) writeFileSync(join(dir, `tool_${String(i).padStart(4, "0")}.yaml`), syntheticTool(i));
}
