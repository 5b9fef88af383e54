/**
 * Secrets: values of properties marked `x-sensitive: true`. The contract
 * says where they live (an automaton over paths, see sensitive.ts); the
 * executor collects the actual values from each call and scrubs them from
 * every string that leaves it.
 */
import type { SensitiveNode, SensitivePaths } from "./contract.js";
import { forEachSensitive } from "./sensitive.js";

export const REDACTED = "[REDACTED]";

/**
 * Below this many characters a value is not redacted from free text at all:
 * a one- or two-character "secret" would scrub every message it occurs in
 * by chance, and carries almost nothing an attacker could use.
 */
export const MIN_SECRET_LENGTH = 3;

/**
 * Below this many characters a secret (a PIN, a CVC) is redacted only where
 * it stands as a whole token, not inside a longer word or number, so that
 * `123` does not scrub `took 1234 ms`.
 */
export const MIN_SUBSTRING_SECRET_LENGTH = 8;

function addSecret(text: string, into: Set<string>): void {
  if (text.length >= MIN_SECRET_LENGTH) into.add(text);
}

const declaredNames = new WeakMap<SensitiveNode, ReadonlySet<string>>();

function declaredIn(node: SensitiveNode): ReadonlySet<string> {
  let names = declaredNames.get(node);
  if (names === undefined) {
    names = new Set(node.declared ?? []);
    declaredNames.set(node, names);
  }
  return names;
}

/**
 * Every string and number inside a sensitive value, at any depth, and every
 * key in it the schema does not declare: the keys of a sensitive map are
 * data too. (Paths hide them as well; see sensitive.ts.)
 */
function collectLeaves(value: unknown, node: SensitiveNode, into: Set<string>): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") addSecret(item, into);
    else if (typeof item === "number" || typeof item === "bigint") addSecret(String(item), into);
    else if (Array.isArray(item)) for (const child of item) stack.push(child);
    else if (item !== null && typeof item === "object") {
      const declared = declaredIn(node);
      for (const key of Object.keys(item)) {
        if (!declared.has(key)) addSecret(key, into);
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
}

/** The sensitive values of `data` (plain JSON, as the executor's copies are) added to `into`. */
export function collectSecrets(data: unknown, paths: SensitivePaths, into: Set<string> = new Set()): Set<string> {
  forEachSensitive(data, paths, (value, node) => collectLeaves(value, node, into));
  return into;
}

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

function literal(text: string): string {
  return text.replace(SYNTAX, "\\$&");
}

/**
 * The forms of a secret that are searched for: as it is, URL-encoded, and
 * escaped inside a JSON string. Matching ignores case, so an upper-cased copy
 * is caught too. Anything further transformed (base64, hashed, split,
 * truncated) is not; see docs/runtime.md, "What redaction can and cannot catch".
 */
function formsOf(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
  return [...forms];
}

/** One pattern for a set of secrets: longest first, so a secret containing another is scrubbed whole. */
function patternFor(secrets: ReadonlySet<string>): RegExp {
  const long: string[] = [];
  const short: string[] = [];
  for (const secret of secrets) for (const form of formsOf(secret)) (form.length >= MIN_SUBSTRING_SECRET_LENGTH ? long : short).push(form);
  const byLength = (a: string, b: string): number => b.length - a.length;
  const parts: string[] = [];
  if (long.length > 0) parts.push(long.sort(byLength).map(literal).join("|"));
  if (short.length > 0) parts.push(`(?<![\\p{L}\\p{N}])(?:${short.sort(byLength).map(literal).join("|")})(?![\\p{L}\\p{N}])`);
  return new RegExp(parts.join("|"), "giu");
}

/**
 * Plain substring replacement, longest form first: for secrets too large to
 * compile into one pattern (a megabyte-long value would make RegExp throw).
 */
function replaceLiterally(text: string, secrets: ReadonlySet<string>): string {
  const forms = [...secrets].flatMap(formsOf).sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of forms) out = out.split(form).join(REDACTED);
  return out;
}

const MAX_PATTERN_SECRETS_LENGTH = 16_384;

/** The compiled pattern per set of secrets, rebuilt when the set has grown (secrets are only ever added); null when it cannot compile. */
const patterns = new WeakMap<ReadonlySet<string>, { size: number; pattern: RegExp | null }>();

function compiledFor(secrets: ReadonlySet<string>): RegExp | null {
  let cached = patterns.get(secrets);
  if (cached === undefined || cached.size !== secrets.size) {
    let pattern: RegExp | null = null;
    // Past this many characters of secrets a single pattern is more likely to fail than to help.
    if ([...secrets].reduce((n, secret) => n + secret.length, 0) <= MAX_PATTERN_SECRETS_LENGTH) {
      try {
        pattern = patternFor(secrets);
      } catch {
        pattern = null;
      }
    }
    cached = { size: secrets.size, pattern };
    patterns.set(secrets, cached);
  }
  return cached.pattern;
}

/** Replaces every occurrence of every secret, in any of the forms formsOf lists. Never throws. */
export function redactText(text: string, secrets: ReadonlySet<string>): string {
  if (secrets.size === 0) return text;
  const pattern = compiledFor(secrets);
  if (pattern !== null) {
    try {
      return text.replace(pattern, REDACTED);
    } catch {
      // The engine compiles lazily and can still give up (stack overflow) on an enormous pattern.
      patterns.set(secrets, { size: secrets.size, pattern: null });
    }
  }
  return replaceLiterally(text, secrets);
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
