/**
 * Exact decimal arithmetic for `multipleOf` and numeric bounds. A JSON number
 * is read as the decimal it is written as (JavaScript's shortest round-trip
 * form), so 19.99 is 1999 × 10⁻², a multiple of 0.01 (1 × 10⁻²), although
 * 19.99 / 0.01 is 1998.9999999999998 in floating point. Whether a number is
 * a multiple of a step is the generated validators' own test
 * (runtime/multiple.ts), so a change is judged as the validators judge calls.
 */
import { decimalOf } from "../runtime/multiple.js";

/** `digits × 10^-scale`, exactly. */
export interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

/** The decimal a finite JSON number is written as (the runtime's `decimalOf`, signed and as a BigInt); undefined for NaN and infinities. */
export function exactDecimal(value: number): Decimal | undefined {
  if (!Number.isFinite(value)) return undefined;
  const { digits: text, scale } = decimalOf(value);
  const digits = value < 0 ? -BigInt(text) : BigInt(text);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** Both on one scale, so their digits compare and divide as integers. */
function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.digits * 10n ** BigInt(scale - a.scale), b.digits * 10n ** BigInt(scale - b.scale), scale];
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function toNumber(d: Decimal): number {
  return Number(`${d.digits}e-${d.scale}`);
}

/** The smallest positive number every multiple of all `steps` is a multiple of (their least common multiple). */
export function commonStep(steps: readonly number[]): number | undefined {
  let acc: Decimal | undefined;
  for (const step of steps) {
    const d = exactDecimal(step);
    if (d === undefined || d.digits <= 0n) return undefined;
    if (acc === undefined) {
      acc = d;
      continue;
    }
    const [x, y, scale] = aligned(acc, d);
    acc = { digits: (x / gcd(x, y)) * y, scale };
  }
  return acc === undefined ? undefined : toNumber(acc);
}

/** The multiple of `step` nearest to `bound` on the inside: at or above it for a lower bound, at or below for an upper. */
export function snapToStep(bound: number, step: number, lower: boolean, exclusive: boolean): number | undefined {
  const b = exactDecimal(bound);
  const s = exactDecimal(step);
  if (b === undefined || s === undefined || s.digits <= 0n) return undefined;
  const [bd, sd, scale] = aligned(b, s);
  let k = bd / sd; // truncated toward zero
  const exact = k * sd === bd;
  if (lower) {
    if (k * sd < bd) k += 1n;
    if (exact && exclusive) k += 1n;
  } else {
    if (k * sd > bd) k -= 1n;
    if (exact && exclusive) k -= 1n;
  }
  return toNumber({ digits: k * sd, scale });
}

/** How many multiples of `step` lie in [low, high], both already multiples; undefined when more than `limit`. */
export function countSteps(low: number, high: number, step: number, limit: number): number | undefined {
  const l = exactDecimal(low);
  const h = exactDecimal(high);
  const s = exactDecimal(step);
  if (l === undefined || h === undefined || s === undefined || s.digits <= 0n) return undefined;
  const [ld, hd] = aligned(l, h);
  const [span, sd] = aligned({ digits: hd - ld, scale: Math.max(l.scale, h.scale) }, s);
  const n = span / sd + 1n;
  return n < 0n ? 0 : n > BigInt(limit) ? undefined : Number(n);
}

/** `base + k × step`, exactly, as a number. */
export function stepFrom(base: number, step: number, k: number): number | undefined {
  const b = exactDecimal(base);
  const s = exactDecimal(step);
  if (b === undefined || s === undefined) return undefined;
  const [bd, sd, scale] = aligned(b, s);
  return toNumber({ digits: bd + BigInt(k) * sd, scale });
}
