/**
 * Secrets: values of properties marked `x-sensitive: true`. The contract
 * lists where they live as path patterns; the executor collects the actual
 * values from each call and scrubs them from every string that leaves it.
 */
import type { PathPattern } from "./contract.js";

export const REDACTED = "[REDACTED]";

/** Values that would scrub too much to be useful as needles. */
function worthRedacting(text: string): boolean {
  return text.length > 0;
}

function collectLeaves(value: unknown, into: Set<string>, depth: number): void {
  if (depth > 64) return;
  if (typeof value === "string") {
    if (worthRedacting(value)) into.add(value);
  } else if (typeof value === "number" || typeof value === "bigint") {
    into.add(String(value));
  } else if (Array.isArray(value)) {
    for (const item of value) collectLeaves(item, into, depth + 1);
  } else if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) collectLeaves((value as Record<string, unknown>)[key], into, depth + 1);
  }
}

function childrenAt(node: unknown, segment: string): unknown[] {
  if (node === null || typeof node !== "object") return [];
  if (Array.isArray(node)) return segment === "*" ? node : [];
  const record = node as Record<string, unknown>;
  if (segment === "*") return Object.keys(record).map((key) => record[key]);
  return Object.hasOwn(record, segment) ? [record[segment]] : [];
}

/** The values found at `patterns` in `data` ("*" = any index or key); a sensitive object contributes all its leaves. */
export function collectSecrets(data: unknown, patterns: readonly PathPattern[], into: Set<string> = new Set()): Set<string> {
  for (const pattern of patterns) {
    let nodes: unknown[] = [data];
    for (const segment of pattern) nodes = nodes.flatMap((node) => childrenAt(node, segment));
    for (const node of nodes) collectLeaves(node, into, 0);
  }
  return into;
}

/** Replaces every occurrence of every secret; longest first, so a secret containing another is scrubbed whole. */
export function redactText(text: string, secrets: ReadonlySet<string>): string {
  if (secrets.size === 0) return text;
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join(REDACTED);
  return out;
}

function redactProperties(source: object, target: object, secrets: ReadonlySet<string>, seen: Map<object, unknown>, depth: number): void {
  for (const key of Reflect.ownKeys(source)) {
    const descriptor = Object.getOwnPropertyDescriptor(source, key);
    if (descriptor === undefined) continue;
    // Some engines expose `stack` as an accessor; read it once and store plain data.
    const raw: unknown = "value" in descriptor ? descriptor.value : Reflect.get(source, key);
    Object.defineProperty(target, key, {
      value: redactDeep(raw, secrets, seen, depth + 1),
      enumerable: descriptor.enumerable ?? false,
      writable: true,
      configurable: true,
    });
  }
}

function redactDeep(value: unknown, secrets: ReadonlySet<string>, seen: Map<object, unknown>, depth: number): unknown {
  if (typeof value === "string") return redactText(value, secrets);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return seen.get(value);
  if (depth > 16) return REDACTED;
  // Keep the prototype so `instanceof` and `name` still work on the copy in a trace sink.
  const copy: object = Array.isArray(value) ? [] : Object.create(Object.getPrototypeOf(value) as object | null);
  seen.set(value, copy);
  redactProperties(value, copy, secrets, seen, depth);
  return copy;
}

/**
 * A copy of a thrown value with every secret scrubbed from its strings
 * (message, stack, cause, custom fields). With no secrets, the raw value
 * itself, so trace sinks see exactly what was thrown.
 */
export function redactError(error: unknown, secrets: ReadonlySet<string>): unknown {
  if (secrets.size === 0) return error;
  try {
    return redactDeep(error, secrets, new Map(), 0);
  } catch {
    // A Proxy or exotic object refused to be read; drop it rather than leak it.
    return REDACTED;
  }
}
