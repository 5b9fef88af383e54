/**
 * The lengths normalize/format-lengths.ts says each format implies, checked
 * against the runtime's own checkers: a string of the shortest (and, where
 * there is one, the longest) length passes, and none shorter or longer does,
 * among every short string over the characters the grammars use and strings
 * just past each bound made from accepted ones. A figure that is too generous
 * would make `toolc diff` call a real tightening no change.
 */
import { describe, expect, it } from "vitest";
import { FORMAT_LENGTHS } from "../../generator/normalize/format-lengths.js";
import { formats } from "../../generator/runtime/formats.js";

/** The shortest and longest strings each format accepts, where the table has a figure. */
const EXTREMES: Record<string, { shortest: string; longest?: string }> = {
  date: { shortest: "2026-03-01", longest: "2026-03-01" },
  uuid: { shortest: "0b6c8a8e-4d1c-4a8e-9d55-6f1f3c2a9b10", longest: "0b6c8a8e-4d1c-4a8e-9d55-6f1f3c2a9b10" },
  time: { shortest: "12:00:00Z" },
  "date-time": { shortest: "2026-03-01T12:00:00Z" },
  duration: { shortest: "P1D" },
  ipv4: { shortest: "0.0.0.0", longest: "255.255.255.255" },
  ipv6: { shortest: "::", longest: "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255" },
  hostname: { shortest: "a", longest: `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}` },
  email: { shortest: "a@b.c" },
  uri: { shortest: "a:" },
  "relative-json-pointer": { shortest: "0" },
};

/** Every string of length 0 to `max` over `alphabet`. */
function allStrings(alphabet: string, max: number): string[] {
  let level = [""];
  const out = [""];
  for (let n = 1; n <= max; n++) {
    level = level.flatMap((s) => [...alphabet].map((c) => s + c));
    out.push(...level);
  }
  return out;
}

// The characters the grammars of the short formats are built from.
const SHORT = allStrings("a0:.@P1DWTZ", 4);

describe("the lengths a format implies", () => {
  it("lists every format it names, and each has its extremes here", () => {
    for (const name of Object.keys(FORMAT_LENGTHS)) expect(formats[name], name).toBeTypeOf("function");
    expect(Object.keys(EXTREMES).sort()).toEqual(Object.keys(FORMAT_LENGTHS).sort());
  });

  it.each(Object.entries(FORMAT_LENGTHS))("%s: the shortest and longest strings it accepts have the stated lengths", (name, { min, max }) => {
    const check = formats[name] as (s: string) => boolean;
    const { shortest, longest } = EXTREMES[name] as { shortest: string; longest?: string };
    expect([check(shortest), shortest.length]).toEqual([true, min]);
    if (max !== Infinity) expect([check(longest as string), longest?.length]).toEqual([true, max]);
    else expect(longest).toBeUndefined();
  });

  it.each(Object.entries(FORMAT_LENGTHS))("%s: no shorter or longer string passes", (name, { min, max }) => {
    const check = formats[name] as (s: string) => boolean;
    const { shortest, longest = shortest } = EXTREMES[name] as { shortest: string; longest?: string };
    const near = [shortest.slice(1), shortest.slice(0, -1), `${longest}0`, `0${longest}`, `${longest}a`, `a${longest}`, `${longest}.a`];
    const outside = [...SHORT, ...near].filter((s) => s.length < min || s.length > max);
    expect(outside.filter(check)).toEqual([]);
  });
});
