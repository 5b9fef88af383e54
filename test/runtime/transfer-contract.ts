/** A confirmed payment tool for the confirmation tests: the recipient and the amount come first in the contract, a long free-text memo after them, and a PIN that is x-sensitive. */
import { defineContract } from "./fixtures.js";

const REASONS = { CONFIRMATION_DECLINED: "declined", CONFIRMATION_INVALID: "invalid", CONFIRMATION_UNAVAILABLE: "unavailable" };
export type Transfer = { to: string; amount: { value: number; currency: string }; memo?: string; pin?: string; priority?: string };
export const transfer = {
  ...defineContract<Transfer, Transfer, { sent: boolean }, keyof typeof REASONS>({
    name: "transfer",
    effect: "destructive",
    errors: REASONS,
    input: {
      type: "object",
      properties: {
        to: { type: "string" },
        amount: { $ref: "#/$defs/Money" },
        memo: { type: "string", maxLength: 5000 },
        pin: { type: "string", "x-sensitive": true },
        priority: { type: "string", default: "normal" },
      },
      required: ["to", "amount"],
      additionalProperties: { type: "string" },
      $defs: { Money: { type: "object", properties: { value: { type: "integer" }, currency: { type: "string" } }, required: ["value", "currency"], additionalProperties: false } },
    },
    output: { type: "object", properties: { sent: { type: "boolean" } }, required: ["sent"], additionalProperties: false },
  }),
  confirm: true as const,
};

