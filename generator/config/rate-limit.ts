/**
 * A declared rate limit as written, in a contract or in toolc.config.yaml
 * (both shapes are checked by their JSON Schemas, with located errors), with
 * its default applied: counted per the verified token's subject.
 */
import type { RateLimitIR } from "../ir.js";

export interface RateLimitValues {
  readonly calls: number;
  readonly windowSeconds: number;
  readonly per?: "subject" | "client";
}

export function rateLimitOf(raw: RateLimitValues): RateLimitIR {
  return { calls: raw.calls, windowSeconds: raw.windowSeconds, per: raw.per ?? "subject" };
}
