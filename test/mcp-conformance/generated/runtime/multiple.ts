// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * `multipleOf` decided exactly, on the decimal digits of the numbers. A JSON
 * number like 19.99 has no exact binary form, so float division (19.99 /
 * 0.01 = 1998.9999999999998) rejected exact multiples, and a tolerance
 * (Ajv's `multipleOfPrecision`) accepts near-misses such as 0.0100000001.
 * Here each number is read as the decimal it is written as: JavaScript's
 * shortest round-trip form (`String(19.99)` is "19.99"), which is the text
 * the caller sent for any number of up to 15 significant digits. 19.99,
 * 4.35 and 0.07 are multiples of 0.01; 2.675 (267.5 hundredths) is not.
 * The generated validators import it from here, and the contract tests'
 * values are checked with it.
 */

/** `n` (finite) as digits × 10^-scale: 19.99 is "1999" and 2, 1e21 is "1" and -21. */
export function decimalOf(n: number): {
  readonly digits: string;
  readonly scale: number;
} {
  const text = String(Math.abs(n));
  const e = text.indexOf("e");
  const mantissa = e < 0 ? text : text.slice(0, e);
  const exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf(".");
  const fraction = dot < 0 ? 0 : mantissa.length - dot - 1;
  return {
    digits:
      dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1),
    scale: fraction - exponent,
  };
}

/** Powers of ten that are exact doubles. */
const POWERS_OF_TEN = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
  1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/** Below this, a double times a power of ten is within 0.5 of the whole number it stands for, and whole numbers this far apart are distinct doubles. */
const EXACT_SCALED = 2 ** 51;

/** `digits` followed by `zeros` zeros, as a BigInt (made by call, not by literal, so any compile target accepts it). */
function bigScaled(digits: string, zeros: number): bigint {
  return BigInt(digits + "0".repeat(zeros));
}

/** The digits of `value` and `step`, both scaled to whole numbers: the exact answer for any two finite numbers. */
function multipleByDigits(value: number, step: number): boolean {
  const v = decimalOf(value);
  const s = decimalOf(step);
  const scale = Math.max(v.scale, s.scale, 0);
  return (
    bigScaled(v.digits, scale - v.scale) %
      bigScaled(s.digits, scale - s.scale) ===
    BigInt(0)
  );
}

/**
 * Whether `value` is a whole multiple of `step`, a non-whole step whose
 * decimal form is `digits` × 10^-scale (decimalOf, worked out once per
 * schema). When `value` × 10^scale is small enough to be exact, `value` is a
 * multiple exactly when that, rounded to the whole number r, gives `value`
 * back as r / 10^scale (so `value` has no more decimals than the step) and r
 * is a multiple of `digits`. Anything larger is decided on the digits.
 */
export function isDecimalMultiple(
  value: number,
  step: number,
  digits: number,
  scale: number,
): boolean {
  if (!Number.isFinite(value)) return false;
  const power = POWERS_OF_TEN[scale];
  if (power !== undefined && Number.isSafeInteger(digits)) {
    const x = value * power;
    if (Math.abs(x) < EXACT_SCALED) {
      const r = Math.round(x);
      return r / power === value && r % digits === 0;
    }
  }
  return multipleByDigits(value, step);
}

/**
 * Whether `value` is a whole multiple of `step` (finite, > 0). Whole numbers
 * are exact in binary, and `%` is exact on them; any other step goes by its
 * decimal digits.
 */
export function isMultipleOf(value: number, step: number): boolean {
  if (Number.isInteger(step)) return value % step === 0;
  const { digits, scale } = decimalOf(step);
  return isDecimalMultiple(value, step, Number(digits), scale);
}
