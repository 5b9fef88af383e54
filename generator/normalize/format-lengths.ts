/**
 * The lengths, in characters, of the strings each format's checker in
 * runtime/formats.ts accepts: a `minLength` or `maxLength` a format already
 * implies says nothing more, and one the format cannot meet lets no string
 * pass. Each figure is read off the checker's grammar, and every string those
 * grammars accept is ASCII, so UTF-16 units and the code points `maxLength`
 * counts are the same. Only figures that are exact are listed: the shortest
 * string a format accepts and, where the grammar has one, the longest;
 * test/diff/format-lengths.test.ts checks them against the checkers.
 */

export interface FormatLengths {
  readonly min: number;
  /** Infinity where the grammar repeats without a bound. */
  readonly max: number;
}

export const FORMAT_LENGTHS: Readonly<Record<string, FormatLengths>> = {
  // YYYY-MM-DD, fixed width.
  date: { min: 10, max: 10 },
  // 8-4-4-4-12 hex digits with four hyphens, fixed width.
  uuid: { min: 36, max: 36 },
  // hh:mm:ssZ at least; the fraction of a second has any number of digits.
  time: { min: 9, max: Infinity },
  // YYYY-MM-DDThh:mm:ssZ at least; the fraction as in time.
  "date-time": { min: 20, max: Infinity },
  // P1D, P1W; the digits of each unit are unbounded.
  duration: { min: 3, max: Infinity },
  // 0.0.0.0 to 255.255.255.255.
  ipv4: { min: 7, max: 15 },
  // "::" to six groups and a dotted quad (ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255).
  ipv6: { min: 2, max: 45 },
  // The checker's own lookahead: 1 to 253 characters.
  hostname: { min: 1, max: 253 },
  // a@b.c: a local part, "@", and a domain of at least two labels (or an address literal, longer).
  email: { min: 5, max: Infinity },
  // A scheme of one letter and its colon.
  uri: { min: 2, max: Infinity },
  // A single digit.
  "relative-json-pointer": { min: 1, max: Infinity },
  // uri-reference, regex and json-pointer accept the empty string and repeat without a bound: they imply nothing.
};

/** The lengths every string of all `formats` has: the tightest of each one's bounds. */
export function impliedLengths(formats: readonly string[]): FormatLengths {
  let min = 0;
  let max = Infinity;
  for (const format of formats) {
    const lengths = FORMAT_LENGTHS[format];
    if (lengths === undefined) continue;
    min = Math.max(min, lengths.min);
    max = Math.min(max, lengths.max);
  }
  return { min, max };
}
