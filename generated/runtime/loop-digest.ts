// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The loop guard's memory of a call's arguments: a keyed digest, never the
 * arguments. Each guard draws its own random key, so a digest says nothing
 * outside the guard that made it (no one can test a guessed secret against
 * it), and it is computed synchronously, with no `node:` import, so the same
 * code runs on Node, Deno, Bun and workers.
 *
 * The hash is built on HalfSipHash-2-4's rounds (32-bit words, so no BigInt),
 * run twice with two halves of a 128-bit key for a 64-bit digest: a keyed
 * hash, not a MAC anyone verifies, which is all a guard that keeps a handful
 * of digests in memory needs.
 */

/** Bounds on what a digest reads of a value: a hostile or huge input costs at most this much. */
const MAX_DEPTH = 64;
const MAX_NODES = 20_000;

/** A digest: two 32-bit words as one string, cheap to compare and to keep in a Set. */
export type Digest = string;

export interface DigestKey {
  readonly words: Uint32Array;
}

interface WebRandom {
  getRandomValues(array: Uint32Array): Uint32Array;
}

/**
 * Random words drawn from WebCrypto a pool at a time: one `getRandomValues`
 * call costs microseconds on Node (a synchronous job in its crypto layer), so
 * a guard per conversation would pay that on every conversation otherwise.
 */
const POOL_WORDS = 1024;
let pool: Uint32Array | undefined;
let poolAt = POOL_WORDS;

function randomWords(count: number): Uint32Array {
  if (pool === undefined || poolAt + count > POOL_WORDS) {
    pool = new Uint32Array(POOL_WORDS);
    poolAt = 0;
    const crypto = (globalThis as { crypto?: WebRandom }).crypto;
    let filled = false;
    try {
      if (crypto !== undefined) {
        crypto.getRandomValues(pool);
        filled = true;
      }
    } catch {
      // Falls through to Math.random: the key only keeps digests private to the guard.
    }
    if (!filled)
      for (let i = 0; i < POOL_WORDS; i++)
        pool[i] = Math.floor(Math.random() * 2 ** 32);
  }
  const words = pool.slice(poolAt, poolAt + count);
  // Each word is handed out once: no two guards share a key.
  pool.fill(0, poolAt, poolAt + count);
  poolAt += count;
  return words;
}

/** A fresh 128-bit key, from WebCrypto where there is one (every runtime toolc supports has it), else Math.random. */
export function newDigestKey(): DigestKey {
  return { words: randomWords(4) };
}

const rotl = (x: number, b: number): number => (x << b) | (x >>> (32 - b));

/** One keyed 32-bit lane over the string's UTF-16 code units, two to a word. */
function lane(text: string, k0: number, k1: number): number {
  let v0 = k0 | 0;
  let v1 = k1 | 0;
  let v2 = 0x6c796765 ^ k0;
  let v3 = 0x74656462 ^ k1;
  const round = (): void => {
    v0 = (v0 + v1) | 0;
    v1 = rotl(v1, 5) ^ v0;
    v0 = rotl(v0, 16);
    v2 = (v2 + v3) | 0;
    v3 = rotl(v3, 8) ^ v2;
    v0 = (v0 + v3) | 0;
    v3 = rotl(v3, 7) ^ v0;
    v2 = (v2 + v1) | 0;
    v1 = rotl(v1, 13) ^ v2;
    v2 = rotl(v2, 16);
  };
  const whole = text.length - (text.length % 2);
  for (let i = 0; i < whole; i += 2) {
    const m = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  // The last word holds the length, so "a" and "a\0" differ.
  const last =
    ((text.length & 0xffff) << 16) |
    (whole < text.length ? text.charCodeAt(whole) : 0);
  v3 ^= last;
  round();
  round();
  v0 ^= last;
  v2 ^= 0xff;
  round();
  round();
  round();
  round();
  return (v1 ^ v3) >>> 0;
}

/** The keyed digest of a string. */
export function digestText(key: DigestKey, text: string): Digest {
  const w = key.words;
  const a = lane(text, w[0] ?? 0, w[1] ?? 0);
  const b = lane(text, w[2] ?? 0, w[3] ?? 0);
  return `${a.toString(36)}.${b.toString(36)}`;
}

let unique = 0;

/**
 * The keyed digest of a value, by its canonical JSON (object keys sorted, so
 * `{a, b}` and `{b, a}` are the same call). A value that cannot be read as
 * JSON (a cycle, a getter that throws, more than the bounds allow) gets a
 * digest of its own that matches nothing: the guard then never refuses it as
 * a repeat, which fails open for that one call and never throws.
 */
export function digestValue(key: DigestKey, value: unknown): Digest {
  try {
    const parts: string[] = [];
    const budget = { nodes: 0 };
    if (canonical(value, parts, 0, budget))
      return digestText(key, parts.join(""));
  } catch {
    // A Proxy or getter that throws: unreadable, so unique.
  }
  unique = (unique + 1) % Number.MAX_SAFE_INTEGER;
  return `unreadable.${unique}`;
}

/** Appends the canonical JSON of `value` to `out`; false when the value is not plain JSON within the bounds. */
function canonical(
  value: unknown,
  out: string[],
  depth: number,
  budget: { nodes: number },
): boolean {
  if (++budget.nodes > MAX_NODES || depth > MAX_DEPTH) return false;
  if (value === null) return (out.push("null"), true);
  switch (typeof value) {
    case "string":
      out.push(JSON.stringify(value));
      return true;
    case "number":
      out.push(Number.isFinite(value) ? String(value) : "null");
      return true;
    case "boolean":
      out.push(value ? "true" : "false");
      return true;
    case "object":
      break;
    default:
      // undefined, functions, symbols and bigints are not JSON; an absent value is marked apart from null.
      out.push(value === undefined ? "~" : "?");
      return value === undefined;
  }
  if (Array.isArray(value)) {
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(",");
      if (!canonical(value[i], out, depth + 1, budget)) return false;
    }
    out.push("]");
    return true;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out.push("{");
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    if (i > 0) out.push(",");
    out.push(JSON.stringify(k), ":");
    if (!canonical(record[k], out, depth + 1, budget)) return false;
  }
  out.push("}");
  return true;
}

/**
 * The segments of an issue path as the executor writes it (`orders[0].status`,
 * `["a key"]`, "" for the root), or undefined when it cannot be read back (a
 * path with a redacted key, say).
 */
export function parsePath(path: string): (string | number)[] | undefined {
  const segments: (string | number)[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === "[") {
      if (path[i + 1] === '"') {
        const end = stringEnd(path, i + 2);
        if (end === -1 || path[end + 1] !== "]") return undefined;
        try {
          segments.push(JSON.parse(path.slice(i + 1, end + 1)) as string);
        } catch {
          return undefined;
        }
        i = end + 2;
      } else {
        const close = path.indexOf("]", i);
        const digits = close === -1 ? "" : path.slice(i + 1, close);
        if (!/^\d{1,9}$/.test(digits)) return undefined;
        segments.push(Number(digits));
        i = close + 1;
      }
    } else {
      if (c === ".") {
        if (segments.length === 0) return undefined;
        i++;
      }
      const match = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(path.slice(i));
      if (match === null) return undefined;
      segments.push(match[0]);
      i += match[0].length;
    }
  }
  return segments;
}

/** Where the JSON string starting after its opening quote at `from` closes, or -1. */
function stringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** The value at `segments` in `value`, own properties only; undefined where there is none. */
export function valueAt(
  value: unknown,
  segments: readonly (string | number)[],
): unknown {
  let node = value;
  for (const segment of segments) {
    if (node === null || typeof node !== "object") return undefined;
    if (!Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}
