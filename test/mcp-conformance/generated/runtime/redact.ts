// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Secrets: the values of a call that its contract marks `x-sensitive`. The
 * executor collects them from each call (sensitive.ts finds where they are)
 * and scrubs them from every string that leaves it. All the forms of all
 * the secrets are matched in one pass over a string, by one automaton built
 * once per call; how much is collected is capped, and a call past the cap
 * reports none of its free text at all.
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

/**
 * At most this many distinct secrets, with at most MAX_SECRET_CHARS
 * characters in all their forms, are collected for one call. These bound
 * the matcher's size and the time to build it; a call that carries more is
 * saturated (see Secrets).
 */
export const MAX_SECRETS = 4_096;
export const MAX_SECRET_CHARS = 262_144;

/**
 * The forms of a secret that are searched for: as it is, URL-encoded, and
 * escaped inside a JSON string. Matching ignores case, so an upper-cased copy
 * is caught too. Anything further transformed (base64, hashed, split,
 * truncated) is not; see docs/runtime.md, "What redaction can and cannot catch".
 */
function formsOf(secret: string): string[] {
  const forms = [secret];
  let encoded: string;
  try {
    encoded = encodeURIComponent(secret);
  } catch {
    // A lone surrogate has no URL encoding, so no message can carry one.
    encoded = secret;
  }
  const escaped = JSON.stringify(secret).slice(1, -1);
  if (encoded !== secret) forms.push(encoded);
  if (escaped !== secret && escaped !== encoded) forms.push(escaped);
  return forms;
}

/** Case folding per UTF-16 unit, kept to one unit so that positions in the folded text are positions in the text. */
const folded = new Uint16Array(65_536);
const foldKnown = new Uint8Array(65_536);

function fold(unit: number): number {
  if (foldKnown[unit] === 1) return folded[unit] as number;
  let out = unit;
  // Surrogates stay as they are: a case pair outside the BMP is matched as written.
  if (unit < 0xd800 || unit > 0xdfff) {
    const char = String.fromCharCode(unit);
    // Upper then lower, so that ſ, K (kelvin) and the like meet their plain letters, as the regex `iu` flags did.
    const both = char.toUpperCase().toLowerCase();
    const lower = char.toLowerCase();
    if (both.length === 1) out = both.charCodeAt(0);
    else if (lower.length === 1) out = lower.charCodeAt(0);
  }
  folded[unit] = out;
  foldKnown[unit] = 1;
  return out;
}

const WORD = /[\p{L}\p{N}]/u;

/** Whether the code point that ends just before `index` is a letter or a digit. */
function wordBefore(text: string, index: number): boolean {
  if (index <= 0) return false;
  const unit = text.charCodeAt(index - 1);
  const start =
    unit >= 0xdc00 && unit <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return WORD.test(String.fromCodePoint(text.codePointAt(start) as number));
}

/** Whether the code point that starts at `index` is a letter or a digit. */
function wordAt(text: string, index: number): boolean {
  if (index >= text.length) return false;
  return WORD.test(String.fromCodePoint(text.codePointAt(index) as number));
}

/** States 1 to `states - 1` ordered by depth (a counting sort): a state's failure link is always shallower. */
function byDepth(states: number, depth: Int32Array): Int32Array {
  let deepest = 0;
  for (let s = 1; s < states; s++)
    deepest = Math.max(deepest, depth[s] as number);
  // next[d]: where the next state of depth d goes in the order.
  const next = new Int32Array(deepest + 2);
  for (let s = 1; s < states; s++) {
    const d = (depth[s] as number) + 1;
    next[d] = (next[d] as number) + 1;
  }
  for (let d = 1; d < next.length; d++)
    next[d] = (next[d] as number) + (next[d - 1] as number);
  const order = new Int32Array(states - 1);
  for (let s = 1; s < states; s++) {
    const d = depth[s] as number;
    order[next[d] as number] = s;
    next[d] = (next[d] as number) + 1;
  }
  return order;
}

/** A trie state with more children than this keeps them in a map. */
const WIDE = 8;

/**
 * Aho–Corasick over the folded forms of a set of secrets: one pass over a
 * text finds every occurrence of every form. Each state keeps the longest
 * long form and the set of short forms (as a bit per length, 3 to 7) that
 * end there, its own and its suffixes', so a position costs the same
 * however many forms end at it. The trie is stored in typed arrays (first
 * child, next sibling); a state with more than a few children (the root,
 * where most characters of a text are looked up, and any state a crafted
 * set of secrets fans out from) keeps them in a map instead, so no lookup
 * scans a long list.
 */
class Matcher {
  /** Children of the wide states, keyed by `state * 65536 + unit`. */
  readonly #wide = new Map<number, number>();
  readonly #children: Int32Array;
  readonly #firstChild: Int32Array;
  readonly #sibling: Int32Array;
  readonly #unit: Uint16Array;
  readonly #fail: Int32Array;
  readonly #long: Int32Array;
  readonly #short: Uint8Array;

  constructor(forms: readonly string[], totalLength: number) {
    const size = totalLength + 1;
    const parent = new Int32Array(size);
    const depth = new Int32Array(size);
    this.#children = new Int32Array(size);
    this.#firstChild = new Int32Array(size);
    this.#sibling = new Int32Array(size);
    this.#unit = new Uint16Array(size);
    this.#fail = new Int32Array(size);
    this.#long = new Int32Array(size);
    this.#short = new Uint8Array(size);
    let states = 1;
    for (const form of forms) {
      let state = 0;
      for (let i = 0; i < form.length; i++) {
        const unit = fold(form.charCodeAt(i));
        let next = this.#child(state, unit);
        if (next === 0) {
          next = states++;
          this.#unit[next] = unit;
          parent[next] = state;
          depth[next] = i + 1;
          this.#addChild(state, next, unit);
        }
        state = next;
      }
      if (form.length >= MIN_SUBSTRING_SECRET_LENGTH)
        this.#long[state] = form.length;
      else
        this.#short[state] =
          (this.#short[state] as number) |
          (1 << (form.length - MIN_SECRET_LENGTH));
    }
    this.#link(states, parent, depth);
  }

  #addChild(state: number, child: number, unit: number): void {
    const count = (this.#children[state] as number) + 1;
    this.#children[state] = count;
    if (state === 0 || count > WIDE) {
      // Moving to the map: the children listed so far go too.
      if (count === WIDE + 1)
        for (
          let c = this.#firstChild[state] as number;
          c !== 0;
          c = this.#sibling[c] as number
        )
          this.#wide.set(state * 65_536 + (this.#unit[c] as number), c);
      this.#wide.set(state * 65_536 + unit, child);
    } else {
      this.#sibling[child] = this.#firstChild[state] as number;
      this.#firstChild[state] = child;
    }
  }

  /** The child of `state` on `unit`; 0 (the root, never a child) when there is none. */
  #child(state: number, unit: number): number {
    if (state === 0 || (this.#children[state] as number) > WIDE)
      return this.#wide.get(state * 65_536 + unit) ?? 0;
    for (
      let child = this.#firstChild[state] as number;
      child !== 0;
      child = this.#sibling[child] as number
    ) {
      if (this.#unit[child] === unit) return child;
    }
    return 0;
  }

  /** Failure links, and the matches each state inherits from them, shallow states first. */
  #link(states: number, parent: Int32Array, depth: Int32Array): void {
    for (const state of byDepth(states, depth)) {
      const from = parent[state] as number;
      let fail = 0;
      if (from !== 0) {
        const unit = this.#unit[state] as number;
        for (
          let candidate = this.#fail[from] as number;
          ;
          candidate = this.#fail[candidate] as number
        ) {
          fail = this.#child(candidate, unit);
          if (fail !== 0 || candidate === 0) break;
        }
      }
      this.#fail[state] = fail;
      if (this.#long[state] === 0)
        this.#long[state] = this.#long[fail] as number;
      this.#short[state] =
        (this.#short[state] as number) | (this.#short[fail] as number);
    }
  }

  /** `text` with the union of every match replaced by one REDACTED each. */
  redact(text: string): string {
    // Matched spans as [start, end) pairs, merged as they are found: ends only grow, so a new span can only swallow the last ones.
    const spans: number[] = [];
    const add = (start: number, end: number): void => {
      let from = start;
      while (spans.length > 0 && from <= (spans[spans.length - 1] as number)) {
        const lastStart = spans[spans.length - 2] as number;
        spans.length -= 2;
        if (lastStart < from) from = lastStart;
      }
      spans.push(from, end);
    };
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = fold(text.charCodeAt(i));
      for (;;) {
        const next = this.#child(state, unit);
        if (next !== 0 || state === 0) {
          state = next;
          break;
        }
        state = this.#fail[state] as number;
      }
      if (state === 0) continue;
      const end = i + 1;
      const long = this.#long[state] as number;
      if (long > 0) add(end - long, end);
      const short = this.#short[state] as number;
      if (short === 0 || wordAt(text, end)) continue;
      for (
        let bit = 0;
        bit < MIN_SUBSTRING_SECRET_LENGTH - MIN_SECRET_LENGTH;
        bit++
      ) {
        if ((short & (1 << bit)) === 0) continue;
        const start = end - (bit + MIN_SECRET_LENGTH);
        if (!wordBefore(text, start)) add(start, end);
      }
    }
    if (spans.length === 0) return text;
    let out = "";
    let at = 0;
    for (let k = 0; k < spans.length; k += 2) {
      out += text.slice(at, spans[k]) + REDACTED;
      at = spans[k + 1] as number;
    }
    return out + text.slice(at);
  }
}

/**
 * The secrets of one call. Values are added as the call goes (input, then
 * output that failed validation); the matcher is built on the first
 * redaction after a change, so a call that never redacts builds none.
 *
 * Past MAX_SECRETS or MAX_SECRET_CHARS the set is saturated: it stops
 * collecting, and every non-empty text it is asked to redact becomes
 * REDACTED whole, and every error a bare REDACTED. A call that carries that
 * many sensitive values reports nothing of its free text, rather than some
 * of it unsearched.
 */
export class Secrets {
  readonly #values = new Set<string>();
  #chars = 0;
  #saturated = false;
  #matcher: Matcher | undefined = undefined;

  constructor(values: Iterable<string> = []) {
    for (const value of values) this.add(value);
  }

  /** Whether there is nothing to redact. */
  get empty(): boolean {
    return this.#values.size === 0 && !this.#saturated;
  }

  /** Whether more was collected than the caps allow (see the class comment). */
  get saturated(): boolean {
    return this.#saturated;
  }

  get size(): number {
    return this.#values.size;
  }

  /** The secrets collected, in the order they came. */
  values(): IterableIterator<string> {
    return this.#values.values();
  }

  /** Adds one secret (too short ones are ignored, see MIN_SECRET_LENGTH). */
  add(value: string): void {
    if (
      this.#saturated ||
      value.length < MIN_SECRET_LENGTH ||
      this.#values.has(value)
    )
      return;
    let length = 0;
    for (const form of formsOf(value)) length += form.length;
    if (
      this.#values.size >= MAX_SECRETS ||
      this.#chars + length > MAX_SECRET_CHARS
    ) {
      this.#saturated = true;
      this.#matcher = undefined;
      return;
    }
    this.#values.add(value);
    this.#chars += length;
    this.#matcher = undefined;
  }

  /** `text` with every occurrence of every secret, in any form formsOf lists, replaced. Never throws. */
  redact(text: string): string {
    if (this.#saturated) return text.length === 0 ? text : REDACTED;
    if (this.#values.size === 0) return text;
    this.#matcher ??= new Matcher(
      [...this.#values].flatMap(formsOf),
      this.#chars,
    );
    return this.#matcher.redact(text);
  }
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
function collectLeaves(
  value: unknown,
  node: SensitiveNode,
  into: Secrets,
): void {
  const stack: unknown[] = [value];
  while (stack.length > 0 && !into.saturated) {
    const item = stack.pop();
    if (typeof item === "string") into.add(item);
    else if (typeof item === "number" || typeof item === "bigint")
      into.add(String(item));
    else if (Array.isArray(item)) for (const child of item) stack.push(child);
    else if (item !== null && typeof item === "object") {
      const declared = declaredIn(node);
      for (const key of Object.keys(item)) {
        if (!declared.has(key)) into.add(key);
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
}

/** The sensitive values of `data` (plain JSON, as the executor's copies are) added to `into`. */
export function collectSecrets(
  data: unknown,
  paths: SensitivePaths,
  into: Secrets = new Secrets(),
): Secrets {
  forEachSensitive(data, paths, (value, node) =>
    collectLeaves(value, node, into),
  );
  return into;
}

/** `text` with every secret replaced; see Secrets.redact. */
export function redactText(text: string, secrets: Secrets): string {
  return secrets.redact(text);
}

function redactProperties(
  source: object,
  target: object,
  secrets: Secrets,
  seen: Map<object, unknown>,
  depth: number,
): void {
  for (const key of Reflect.ownKeys(source)) {
    const descriptor = Object.getOwnPropertyDescriptor(source, key);
    if (descriptor === undefined) continue;
    // Some engines expose `stack` as an accessor; read it once and store plain data.
    const raw: unknown =
      "value" in descriptor ? descriptor.value : Reflect.get(source, key);
    Object.defineProperty(target, key, {
      value: redactDeep(raw, secrets, seen, depth + 1),
      enumerable: descriptor.enumerable ?? false,
      writable: true,
      configurable: true,
    });
  }
}

function redactDeep(
  value: unknown,
  secrets: Secrets,
  seen: Map<object, unknown>,
  depth: number,
): unknown {
  if (typeof value === "string") return secrets.redact(value);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return seen.get(value);
  if (depth > 16) return REDACTED;
  // Keep the prototype so `instanceof` and `name` still work on the copy in a trace sink.
  const copy: object = Array.isArray(value)
    ? []
    : Object.create(Object.getPrototypeOf(value) as object | null);
  seen.set(value, copy);
  redactProperties(value, copy, secrets, seen, depth);
  return copy;
}

/**
 * A copy of a thrown value with every secret scrubbed from its strings
 * (message, stack, cause, custom fields). With no secrets, the raw value
 * itself, so trace sinks see exactly what was thrown; in a saturated call,
 * a bare REDACTED.
 */
export function redactError(error: unknown, secrets: Secrets): unknown {
  if (secrets.empty) return error;
  if (secrets.saturated) return REDACTED;
  try {
    return redactDeep(error, secrets, new Map(), 0);
  } catch {
    // A Proxy or exotic object refused to be read; drop it rather than leak it.
    return REDACTED;
  }
}
