/**
 * toolc's format checkers against ajv-formats' full mode, table-driven. They
 * must agree on every case except the listed deliberate differences, where
 * toolc follows the RFC (and JSON-Schema-Test-Suite) instead.
 */
import { fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { dateTimeReference, formats } from "../../generator/runtime/formats.js";

type Check = (s: string) => boolean;
function ajvCheck(name: string): Check {
  const f = (fullFormats as Record<string, unknown>)[name] as RegExp | Check | { validate: RegExp | Check };
  const v = typeof f === "object" && !(f instanceof RegExp) ? f.validate : f;
  return v instanceof RegExp ? (s) => v.test(s) : v;
}

/** Agreement cases: [format, value, valid]. */
const AGREE: [string, string, boolean][] = [
  ["date-time", "2026-02-28T10:00:00Z", true], ["date-time", "2026-02-30T10:00:00Z", false],
  ["date-time", "2024-02-29T00:00:00Z", true], ["date-time", "2023-02-29T00:00:00Z", false],
  ["date-time", "2000-02-29T00:00:00Z", true], ["date-time", "1900-02-29T00:00:00Z", false],
  ["date-time", "2026-04-31T10:00:00Z", false], ["date-time", "2026-12-31T23:59:59.999+05:30", true],
  ["date-time", "2026-13-01T10:00:00Z", false], ["date-time", "2026-00-10T10:00:00Z", false],
  ["date-time", "2026-01-00T10:00:00Z", false], ["date-time", "2026-01-01T24:00:00Z", false],
  ["date-time", "2026-01-01T23:60:00Z", false], ["date-time", "2026-01-01T23:59:61Z", false],
  ["date-time", "1998-12-31T23:59:60Z", true], ["date-time", "1998-12-31T23:58:60Z", false],
  ["date-time", "1998-12-31T15:59:60-08:00", true], ["date-time", "1999-01-01T00:59:60+01:00", true],
  ["date-time", "1998-12-31T23:59:60+01:00", false], ["date-time", "2026-01-01t10:00:00z", true],
  ["date-time", "2026-01-01T10:00:00", false], ["date-time", "2026-01-01T10:00:00+24:00", false],
  ["date-time", "2026-01-01T10:00:00+10:60", false], ["date-time", "2026-1-01T10:00:00Z", false],
  ["date-time", "2026-01-01T10:00:00.Z", false], ["date-time", "", false], ["date-time", "x", false],
  ["date", "2024-02-29", true], ["date", "2100-02-29", false], ["date", "2026-06-31", false], ["date", "2026-07-31", true],
  ["date", "2026-01-1", false], ["date", "20260101", false],
  ["time", "23:59:60Z", true], ["time", "01:29:60+01:30", true], ["time", "23:59:60+01:00", false],
  ["time", "12:00:00", false], ["time", "08:30:06.283185z", true], ["time", "24:00:00Z", false],
  ["duration", "P4DT12H30M5S", true], ["duration", "P2W", true], ["duration", "PT", false], ["duration", "P1D2H", false],
  ["uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", true], ["uuid", "2EB8AA08-AA98-11EA-B4AA-73B441D16380", true],
  ["uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638", false], ["uuid", "2eb8aa08aa9811eab4aa73b441d16380", false],
  ["uuid", "2eb8aa08-aa98-11ea-b4ga-73b441d16380", false],
  ["uri", "https://example.com/a?b=c#d", true], ["uri", "urn:isbn:0451450523", true], ["uri", "//example.com", false],
  ["uri", "/relative", false], ["uri", "http://exa mple.com", false], ["uri", "mailto:a@b.c", true],
  ["uri-reference", "/relative?x#y", true], ["uri-reference", "#frag", true], ["uri-reference", "\\\\windows", false],
  ["email", "joe.bloggs@example.com", true], ["email", ".joe@example.com", false], ["email", "joe@", false],
  ["hostname", "www.example.com", true], ["hostname", "-bad.com", false], ["hostname", "a".repeat(64) + ".com", false],
  ["ipv4", "192.168.0.1", true], ["ipv4", "256.0.0.1", false], ["ipv4", "01.2.3.4", false],
  ["ipv6", "::1", true], ["ipv6", "2001:db8::8a2e:370:7334", true], ["ipv6", "12345::", false], ["ipv6", "::ffff:192.168.0.1", true],
  ["regex", "^[a-z]+$", true], ["regex", "^(abc]", false],
  ["json-pointer", "/a~1b/0", true], ["json-pointer", "/a~2", false], ["json-pointer", "a", false],
  ["relative-json-pointer", "0/a", true], ["relative-json-pointer", "1#", true], ["relative-json-pointer", "/a", false],
];

/** Deliberate differences: [format, value, toolc, ajv-formats, why]. */
const DIFFER: [string, string, boolean, boolean, string][] = [
  ["date-time", "2026-01-01 10:00:00Z", false, true, "RFC 3339 date-time needs T"],
  ["date-time", "2026-01-01T10:00:00+01", false, true, "offset must be ±hh:mm"],
  ["date-time", "2026-01-01T10:00:00+0100", false, true, "offset must be ±hh:mm"],
  ["time", "10:00:00+01", false, true, "offset must be ±hh:mm"],
  ["time", "23:60:59+00:01", false, true, "minute 60 never exists"],
  ["duration", "P1Y2D", false, true, "RFC 3339 Appendix A: Y then M then D"],
  ["duration", "PT1H2S", false, true, "RFC 3339 Appendix A: H then M then S"],
  ["uuid", "urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380", false, true, "a URN is not a uuid"],
  ["uri", "http://[::ffff:01.2.3.4]", false, true, "dec-octet has no leading zero"],
  ["uri-reference", "1:b", false, true, "a relative path's first segment has no colon"],
  ["email", '"joe bloggs"@example.com', true, false, "RFC 5321 quoted local part"],
  ["email", "joe@[127.0.0.1]", true, false, "RFC 5321 address literal"],
  ["hostname", "example.com.", false, true, "a trailing dot is DNS notation, not a host name"],
];

describe("format checkers", () => {
  it.each(AGREE)("%s %j → %s, as ajv-formats full", (name, value, valid) => {
    expect(formats[name](value)).toBe(valid);
    expect(ajvCheck(name)(value)).toBe(valid);
  });

  it.each(DIFFER)("%s %j → %s (ajv-formats: %s): %s", (name, value, ours, theirs) => {
    expect(formats[name](value)).toBe(ours);
    expect(ajvCheck(name)(value)).toBe(theirs);
  });

  it("agrees with ajv-formats on every day of four years", () => {
    for (const year of [1900, 2000, 2023, 2024]) {
      for (let month = 1; month <= 12; month++) {
        for (let day = 0; day <= 32; day++) {
          const s = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}T12:00:00Z`;
          expect(formats["date-time"](s), s).toBe(ajvCheck("date-time")(s));
        }
      }
    }
  });

  it("agrees with ajv-formats on leap seconds across offsets", () => {
    for (let h = 0; h < 24; h++) {
      for (const m of [0, 29, 30, 59]) {
        for (const off of ["Z", "+00:00", "+01:00", "-01:00", "+01:30", "-08:00", "+23:30", "-23:30", "+00:30"]) {
          const s = `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:60${off}`;
          expect(formats.time(s), s).toBe(ajvCheck("time")(s));
        }
      }
    }
  });

  it("reads date-times exactly as the regex grammar does, on every one-character edit of valid ones", () => {
    // The last three sit at the edges of the regex that answers most calls alone (30-day months, February 28).
    const seeds = ["2026-03-14T09:26:53Z", "2024-02-29t23:59:59.123+05:30", "1998-12-31T23:59:60Z", "1998-12-31T15:59:60-08:00", "2026-12-31T23:59:59.5z", "2026-04-30T10:00:00Z", "2023-02-28T00:00:00-00:30", "2026-11-30T19:59:59Z"];
    const alphabet = ["0", "1", "2", "3", "5", "6", "9", "-", "+", ":", ".", "T", "t", "Z", "z", " ", "x", "\u0660"];
    let checked = 0;
    for (const seed of seeds) {
      const edits = new Set<string>([seed, seed.slice(0, -1), `${seed}0`, `${seed}Z`]);
      for (let i = 0; i <= seed.length; i++) {
        if (i < seed.length) edits.add(seed.slice(0, i) + seed.slice(i + 1));
        for (const c of alphabet) {
          edits.add(seed.slice(0, i) + c + seed.slice(i));
          if (i < seed.length) edits.add(seed.slice(0, i) + c + seed.slice(i + 1));
        }
      }
      for (const s of edits) {
        expect(formats["date-time"](s), s).toBe(dateTimeReference(s));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("supports exactly the formats toolc documents", () => {
    expect(Object.keys(formats).sort()).toEqual([
      "date", "date-time", "duration", "email", "hostname", "ipv4", "ipv6", "json-pointer", "regex",
      "relative-json-pointer", "time", "uri", "uri-reference", "uuid",
    ]);
  });
});
