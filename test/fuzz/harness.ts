/**
 * Shared by the executor, server and differential fuzzers: the demo contracts,
 * validators compiled independently from their served schemas, schema-shaped
 * arbitraries, and a deep string search that also sees non-enumerable
 * properties (an Error's message and stack).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { contracts } from "../../generated/index.js";
import { formats } from "../../generated/runtime/formats.js";
import { SchemaArbitraries } from "../soundness/schema-arbitrary.js";
import { mutated } from "./hostile.js";

export type ToolName = keyof typeof contracts;
export const TOOL_NAMES = Object.keys(contracts) as ToolName[];

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * A fresh Ajv (not toolc's createAjv, not standalone code) with the runtime's
 * format checkers: independent of the generated validator in everything but
 * the format definitions, which the differential fuzzer tests separately.
 */
export function independentAjv(useDefaults: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, useDefaults, allowUnionTypes: true });
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check as (s: string) => boolean);
  return ajv;
}

const plain = independentAjv(false);
export const independent: Record<ToolName, { input: Validate; output: Validate }> = Object.fromEntries(
  TOOL_NAMES.map((n) => [n, { input: plain.compile(contracts[n].inputSchema), output: plain.compile(contracts[n].outputSchema) }]),
) as never;

/** Mostly-valid values for a tool's input or output, then mutated. */
export function shaped(tool: ToolName, which: "inputSchema" | "outputSchema"): fc.Arbitrary<unknown> {
  return mutated(new SchemaArbitraries(contracts[tool][which] as never).root$());
}

/** Whether `needle` occurs in any string reachable from `value`, own non-enumerable properties included. */
export function containsString(value: unknown, needle: string, seen = new Set<unknown>()): boolean {
  if (typeof value === "string") return value.includes(needle);
  if (value === null || (typeof value !== "object" && typeof value !== "function") || seen.has(value)) return false;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === "string" && key.includes(needle)) return true;
    const d = Object.getOwnPropertyDescriptor(value, key);
    if (d && "value" in d && containsString(d.value, needle, seen)) return true;
  }
  return false;
}

/** Whether `value` survives a JSON round trip unchanged (so JSON-level verdicts apply to it). */
export function isPlainJson(value: unknown): boolean {
  try {
    const text = JSON.stringify(value);
    return text !== undefined && JSON.stringify(JSON.parse(text)) === text && sameJson(value, JSON.parse(text));
  } catch {
    return false;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a === "number") return Object.is(a, b) || (a === 0 && b === 0 && !Object.is(a, -0));
  if (a === null || typeof a !== "object") return a === b;
  if (b === null || typeof b !== "object" || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== (Array.isArray(a) ? Array.prototype : Object.prototype)) return false;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (Array.isArray(a)) ka.splice(ka.indexOf("length"), 1), kb.splice(kb.indexOf("length"), 1);
  // A getter reads like data but is not data; the executor rightly refuses it.
  const isData = (k: string | symbol) => "value" in (Object.getOwnPropertyDescriptor(a, k) ?? {});
  return ka.length === kb.length && ka.every((k) => typeof k === "string" && isData(k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * What a client can put on the wire: JSON. The in-memory transport would
 * pass live objects (Proxies, cycles) that no real peer can send.
 */
export function wireable(args: unknown): unknown {
  if (isPlainJson(args)) return args;
  try {
    return JSON.parse(JSON.stringify(args) ?? "null") as unknown;
  } catch {
    return null;
  }
}

