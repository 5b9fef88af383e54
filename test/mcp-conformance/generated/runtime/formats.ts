// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * String format checkers for the generated validators and for toolc's
 * compile-time checks (createAjv registers these same functions).
 *
 * TypeScript like the rest of the runtime, so a consumer's own build compiles
 * it next to the validators that import it (a plain .js file would be left
 * out of a `tsc` outDir).
 *
 * Speed matters because a date-time check runs for every timestamp in every
 * tool output. Each checker is one anchored regular expression (which does the
 * shape and the digit ranges) plus, where the grammar cannot be a regex, a few
 * charCodeAt reads: no Date parsing, no captures, no allocation.
 *
 * Where RFC 3339 and ajv-formats' full mode disagree we follow the RFC
 * (offset must be `Z` or `±hh:mm`, separator must be `T`, duration follows the
 * Appendix A grammar); test/runtime/formats.test.ts lists each difference.
 */

/** One format checker: true when the string is in the format. */
export type FormatCheck = (s: string) => boolean;

const DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;
// Hours 00-23, minutes 00-59, seconds 00-60; whether :60 is a real leap second
// depends on the offset, so that is checked numerically.
const TIME =
  /^(?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
const DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt](?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/**
 * Two ASCII digits at `i` as a number; the regex has already checked they are digits.
 */
function num2(s: string, i: number): number {
  return (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48;
}

/**
 * Day-of-month check for a `YYYY-MM-DD` starting at 0; days 01-28 need no look at the month.
 */
function validDay(s: string): boolean {
  const day = num2(s, 8);
  if (day <= 28) return true;
  const month = num2(s, 5);
  if (month === 2) {
    if (day > 29) return false;
    const year = num2(s, 0) * 100 + num2(s, 2);
    return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  }
  if (day <= 30) return true;
  // 31 days: Jan, Mar, May, Jul, Aug, Oct, Dec.
  return (
    month === 1 ||
    month === 3 ||
    month === 5 ||
    month === 7 ||
    month === 8 ||
    month === 10 ||
    month === 12
  );
}

/**
 * A leap second (`:60`) exists only at 23:59 UTC. `t` is the index of the hour;
 * the offset is at the end of the string (`Z` or `±hh:mm`).
 */
function validLeapSecond(s: string, t: number): boolean {
  const end = s.length;
  const last = s.charCodeAt(end - 1);
  let offset = 0;
  if (last !== 90 && last !== 122) {
    const minutes = num2(s, end - 5) * 60 + num2(s, end - 2);
    offset = s.charCodeAt(end - 6) === 45 ? -minutes : minutes;
  }
  const utc = (num2(s, t) * 60 + num2(s, t + 3) - offset + 1440) % 1440;
  return utc === 1439;
}

export function date(s: string): boolean {
  return DATE.test(s) && validDay(s);
}

export function time(s: string): boolean {
  // '6' as the first seconds digit can only be :60 (the regex allows 00-59 or 60).
  return TIME.test(s) && (s.charCodeAt(6) !== 54 || validLeapSecond(s, 0));
}

/**
 * The date-times that need no arithmetic: every day a month always has (so
 * not February 29) and seconds 00-59 (so no leap second). Each string it
 * matches is in DATE_TIME's grammar and a real date, so it can answer yes
 * alone; anything else goes to the full check.
 */
const DATE_TIME_COMMON =
  /^\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))[Tt](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/**
 * A date-time is in every tool output, so the common case is one regex test:
 * the regex runs over the characters in native code, after flattening a
 * string built by concatenation once, where a charCodeAt parse (which this
 * replaced) pays a call and, on such a string, an indirection per character
 * (measured in docs/performance.md). February 29, leap seconds and what is
 * not a date-time at all take the full check.
 */
export function dateTime(s: string): boolean {
  return DATE_TIME_COMMON.test(s) || dateTimeReference(s);
}

/**
 * The full date-time grammar (RFC 3339 section 5.6) with real dates and leap
 * seconds; test/runtime/formats.test.ts checks dateTime against it.
 */
export function dateTimeReference(s: string): boolean {
  return (
    DATE_TIME.test(s) &&
    validDay(s) &&
    (s.charCodeAt(17) !== 54 || validLeapSecond(s, 11))
  );
}

// RFC 3339 Appendix A: each unit may be followed only by the next smaller one,
// so P1Y2D and PT1H2S are not durations; weeks stand alone.
const DURATION =
  /^P(?:(?:\d+D|\d+M(?:\d+D)?|\d+Y(?:\d+M(?:\d+D)?)?)(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S)|\d+W)$/;

export function duration(s: string): boolean {
  return DURATION.test(s);
}

// RFC 9562 string form only; the `urn:uuid:` prefix is a URN, not a uuid.
const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

export function uuid(s: string): boolean {
  return UUID.test(s);
}

// The URI expressions follow RFC 3986 Appendix A, built from ajv-formats' (MIT)
// expression (http://jmrware.com/articles/2009/uri_regexp/URI_regex.html) with
// two corrections: dec-octets have no leading zeros, and the first segment of a
// relative path cannot hold a colon (it would read as a scheme).
const DEC_OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4_TEXT = `${DEC_OCTET}(?:\\.${DEC_OCTET}){3}`;
const H16 = "[0-9a-f]{1,4}";
const IPV6_TEXT = [
  `(?:${H16}:){7}(?:${H16}|:)`,
  `(?:${H16}:){6}(?::${H16}|${IPV4_TEXT}|:)`,
  `(?:${H16}:){5}(?:(?::${H16}){1,2}|:${IPV4_TEXT}|:)`,
  `(?:${H16}:){4}(?:(?::${H16}){1,3}|(?::${H16})?:${IPV4_TEXT}|:)`,
  `(?:${H16}:){3}(?:(?::${H16}){1,4}|(?::${H16}){0,2}:${IPV4_TEXT}|:)`,
  `(?:${H16}:){2}(?:(?::${H16}){1,5}|(?::${H16}){0,3}:${IPV4_TEXT}|:)`,
  `(?:${H16}:)(?:(?::${H16}){1,6}|(?::${H16}){0,4}:${IPV4_TEXT}|:)`,
  `:(?:(?::${H16}){1,7}|(?::${H16}){0,5}:${IPV4_TEXT}|:)`,
].join("|");
const PCT = "%[0-9a-f]{2}";
const PCHAR = `(?:[a-z0-9\\-._~!$&'()*+,;=:@]|${PCT})`;
const PCHAR_NC = `(?:[a-z0-9\\-._~!$&'()*+,;=@]|${PCT})`;
const IP_LITERAL = `\\[(?:${IPV6_TEXT}|v[0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]`;
const AUTHORITY = `(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|${PCT})*@)?(?:${IP_LITERAL}|(?:[a-z0-9\\-._~!$&'()*+,;=]|${PCT})*)(?::\\d*)?`;
const SEGMENTS = `(?:\\/${PCHAR}*)*`;
const HIER_PART = `(?:\\/\\/${AUTHORITY}${SEGMENTS}|\\/(?:${PCHAR}+${SEGMENTS})?|${PCHAR}+${SEGMENTS})?`;
const RELATIVE_PART = `(?:\\/\\/${AUTHORITY}${SEGMENTS}|\\/(?:${PCHAR}+${SEGMENTS})?|${PCHAR_NC}+${SEGMENTS})?`;
const QUERY_FRAGMENT = `(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?`;
const SCHEME = "[a-z][a-z0-9+\\-.]*:";
const URI = new RegExp(`^${SCHEME}${HIER_PART}${QUERY_FRAGMENT}$`, "i");
const URI_REFERENCE = new RegExp(
  `^(?:${SCHEME}${HIER_PART}|${RELATIVE_PART})${QUERY_FRAGMENT}$`,
  "i",
);

/** An absolute URI (RFC 3986 `URI`): a scheme is required. */
export function uri(s: string): boolean {
  return URI.test(s);
}

/** A URI or a relative reference. */
export function uriReference(s: string): boolean {
  return URI_REFERENCE.test(s);
}

// RFC 5321 Mailbox: a dot-atom or quoted local part; a host name, or an
// address literal in brackets, as the domain.
const ATOM = "[a-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const EMAIL = new RegExp(
  `^(?:${ATOM}(?:\\.${ATOM})*|"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*")@(?:(?:${LABEL}\\.)+${LABEL}|\\[${IPV4_TEXT}\\]|\\[IPv6:(?:${IPV6_TEXT})\\])$`,
  "i",
);

export function email(s: string): boolean {
  return EMAIL.test(s);
}

// RFC 1123 labels of 1-63 characters, 253 in all. A trailing dot (DNS root)
// is not part of a host name.
const HOSTNAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export function hostname(s: string): boolean {
  return HOSTNAME.test(s);
}

const IPV4 = new RegExp(`^${IPV4_TEXT}$`);

/** Dotted quad, no leading zeros. */
export function ipv4(s: string): boolean {
  return IPV4.test(s);
}

const IPV6 = new RegExp(`^(?:${IPV6_TEXT})$`, "i");

/** RFC 4291 text form, with an optional embedded IPv4 tail. */
export function ipv6(s: string): boolean {
  return IPV6.test(s);
}

// `\Z` is not an ECMAScript anchor but `new RegExp` would accept it as "Z".
const Z_ANCHOR = /[^\\]\\Z/;

/** An ECMAScript regular expression (as the `pattern` keyword compiles it). */
export function regex(s: string): boolean {
  if (Z_ANCHOR.test(s)) return false;
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
}

const JSON_POINTER = /^(?:\/(?:[^~/]|~0|~1)*)*$/;

/** RFC 6901. */
export function jsonPointer(s: string): boolean {
  return JSON_POINTER.test(s);
}

const RELATIVE_JSON_POINTER =
  /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/;

export function relativeJsonPointer(s: string): boolean {
  return RELATIVE_JSON_POINTER.test(s);
}

/**
 * Checkers by JSON Schema format name. The generated validators read from this
 * object, so its keys are the formats toolc supports; any other format is a
 * compile error.
 */
export const formats: Readonly<Record<string, FormatCheck>> = Object.freeze({
  date,
  time,
  "date-time": dateTime,
  duration,
  uuid,
  uri,
  "uri-reference": uriReference,
  email,
  hostname,
  ipv4,
  ipv6,
  regex,
  "json-pointer": jsonPointer,
  "relative-json-pointer": relativeJsonPointer,
});
