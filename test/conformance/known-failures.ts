/**
 * Suite cases toolc's validators are expected to fail, one reason each. The
 * conformance test fails if any of these starts passing (so the list stays
 * tight) or if any other case fails.
 *
 * For comparison, Ajv's own draft 2020-12 run (spec/json-schema.spec.ts)
 * skips 8 whole files and 34 further cases.
 */
import type { Config } from "./suite-runner.js";

export interface KnownFailure {
  readonly file: string;
  readonly group: string;
  /** Test descriptions in the group; "*" for every case that fails there. */
  readonly tests: readonly string[] | "*";
  /** Only under this configuration; both when absent. */
  readonly config?: Config;
  /** Deliberate: toolc chose different semantics, rather than falling short. */
  readonly deliberate?: boolean;
  readonly reason: string;
}

const PROTO_PROPERTY = "Ajv never checks a `properties` entry named `__proto__` (it drops that key from every schema map); toolc refuses a `__proto__` key in definitions (TC003), so no contract can declare one";

export const KNOWN_FAILURES: readonly KnownFailure[] = [
  { file: "properties.json", group: "properties whose names are Javascript object property names", tests: ["__proto__ not valid"], reason: PROTO_PROPERTY },
  { file: "format.json", group: "*", tests: "*", deliberate: true, reason: "toolc treats format as an assertion (2020-12 makes it an annotation by default)" },
  {
    file: "optional/format/hostname.json", group: "validation of A-label (punycode) host names", tests: "*",
    reason: "A-labels are checked as LDH labels; IDNA2008 (punycode decoding, RFC 5892 contextual rules) needs Unicode tables",
  },
  {
    file: "default.json", group: "*", tests: "*", config: "input", deliberate: true,
    reason: "input validators apply defaults before validating, so a missing property gets (and is checked as) its default",
  },
];

function matches(f: KnownFailure, file: string, group: string, test: string, config: Config): boolean {
  if (f.file !== file || (f.config !== undefined && f.config !== config)) return false;
  if (f.group !== "*" && f.group !== group) return false;
  return f.tests === "*" || f.tests.includes(test);
}

/** The known failure covering a case, if any. */
export function knownFailure(file: string, group: string, test: string, config: Config): KnownFailure | undefined {
  return KNOWN_FAILURES.find((f) => matches(f, file, group, test, config));
}
