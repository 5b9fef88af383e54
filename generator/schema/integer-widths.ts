/**
 * The bounds that an integer's storage width implies: OpenAPI's `int32` and
 * `int64` formats (OpenAPI 3.0 §4.4). The OpenAPI import writes `int32` as
 * these bounds (JSON Schema has no such format); the catalog leaves a bound
 * that only says "fits the width" out of a field's details, where
 * `-2147483648 ≤ value ≤ 2147483647` would tell a reader nothing.
 */

export interface IntegerWidth {
  readonly minimum: number;
  readonly maximum: number;
}

export const INTEGER_WIDTHS: Readonly<Record<"int32" | "int64", IntegerWidth>> = {
  int32: { minimum: -2147483648, maximum: 2147483647 },
  // 2^63 - 1 is not a double; JSON parsers read it, as written in a description, as 2^63.
  int64: { minimum: -(2 ** 63), maximum: 2 ** 63 - 1 },
};

/** Whether `bound` is a width's own lower (`minimum`) or upper (`maximum`) end, and so says nothing a caller needs. */
export function isWidthBound(bound: number, end: "minimum" | "maximum"): boolean {
  return Object.values(INTEGER_WIDTHS).some((width) => width[end] === bound);
}
