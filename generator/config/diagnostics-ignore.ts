/**
 * The config's `diagnostics:` section: warnings a project has decided to
 * live with, silenced by code and folder.
 *
 *   diagnostics:
 *     ignore:
 *       - code: TC036
 *         paths: ["definitions/twilio/**"]
 *
 * Only warnings can be silenced: an error means nothing is written, so an
 * entry naming an error code (or a code toolc does not have) is itself an
 * error, located at the code. Paths are globs relative to the config file's
 * folder (`*` within a folder, `**` across folders); a path that names a
 * folder covers everything in it.
 */
import { relative, resolve, sep } from "node:path";
import { Codes, error, WARNING_CODES } from "../diagnostics.js";
import type { Diagnostic } from "../ir.js";
import { didYouMean } from "../load/suggest.js";
import type { LoadedConfig } from "./load.js";

export interface IgnoreRule {
  readonly code: string;
  /** As written in the config. */
  readonly paths: readonly string[];
}

/** A glob as a regular expression over posix paths relative to the project folder; a match of a folder covers what is inside it. */
export function globPattern(glob: string): RegExp {
  const trimmed = glob.replace(/^\.\//, "").replace(/\/+$/, "");
  let source = "";
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed[i]!;
    if (c === "*" && trimmed[i + 1] === "*") {
      // `**/` is any number of folders, none included; `**` alone anything.
      if (trimmed[i + 2] === "/") {
        source += "(?:.*/)?";
        i += 2;
      } else {
        source += ".*";
        i += 1;
      }
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}(?:/.*)?$`);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The rules of the config's `diagnostics:` section, or a located error for each entry that is not one. */
export function ignoreRulesOf(config: LoadedConfig | undefined): { rules: IgnoreRule[]; diagnostics: Diagnostic[] } {
  const section = (config?.values as { diagnostics?: unknown } | undefined)?.diagnostics;
  if (!config || section === undefined) return { rules: [], diagnostics: [] };
  const at = (path: readonly (string | number)[], key = false) => config.locatePath(["diagnostics", ...path], { key });
  const diagnostics: Diagnostic[] = [];
  if (!isRecord(section))
    return { rules: [], diagnostics: [error(at([]), Codes.invalidValue, "`diagnostics` must be a map with `ignore: [{ code, paths }]`")] };
  for (const key of Object.keys(section)) {
    if (key !== "ignore") diagnostics.push(error(at([key], true), Codes.unknownKey, `unknown key \`${key}\` in \`diagnostics\`${didYouMean(key, ["ignore"])}`));
  }
  const ignore = section["ignore"] ?? [];
  if (!Array.isArray(ignore))
    return { rules: [], diagnostics: [...diagnostics, error(at(["ignore"]), Codes.invalidValue, "`diagnostics.ignore` must be a list of `{ code, paths }`")] };
  const known = Object.values(Codes) as string[];
  const rules: IgnoreRule[] = [];
  ignore.forEach((entry: unknown, i) => {
    if (!isRecord(entry))
      return void diagnostics.push(error(at(["ignore", i]), Codes.invalidValue, "an ignore entry must be a map: `{ code: TCnnn, paths: [glob, …] }`"));
    for (const key of Object.keys(entry)) {
      if (key !== "code" && key !== "paths")
        diagnostics.push(
          error(at(["ignore", i, key], true), Codes.unknownKey, `unknown key \`${key}\` in an ignore entry${didYouMean(key, ["code", "paths"])}`),
        );
    }
    const { code, paths } = entry;
    const before = diagnostics.length;
    if (typeof code !== "string")
      diagnostics.push(
        error(
          at(["ignore", i, ...(code === undefined ? [] : ["code"])]),
          Codes.missingField,
          "an ignore entry needs `code`: the warning to silence, e.g. TC036",
        ),
      );
    else if (!known.includes(code))
      diagnostics.push(error(at(["ignore", i, "code"]), Codes.invalidValue, `\`${code}\` is not a toolc diagnostic code${didYouMean(code, WARNING_CODES)}`));
    else if (!WARNING_CODES.includes(code))
      diagnostics.push(
        error(
          at(["ignore", i, "code"]),
          Codes.invalidValue,
          `${code} is an error, and errors cannot be silenced; only warnings can (${WARNING_CODES.join(", ")})`,
        ),
      );
    if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === "string" && p !== ""))
      diagnostics.push(
        error(
          at(["ignore", i, ...(paths === undefined ? [] : ["paths"])]),
          Codes.invalidValue,
          'an ignore entry needs `paths`: a list of globs relative to the config file, e.g. ["definitions/twilio/**"]',
        ),
      );
    if (diagnostics.length === before) rules.push({ code: code as string, paths: paths as string[] });
  });
  return { rules, diagnostics };
}

/**
 * The test of whether a diagnostic is silenced: a warning whose code a rule
 * names, in a file one of its paths matches. `cwd` is the folder the
 * diagnostics' paths are relative to, `root` the config file's folder.
 */
export function silencer(rules: readonly IgnoreRule[], root: string, cwd: string): (d: Diagnostic) => boolean {
  if (rules.length === 0) return () => false;
  const compiled = rules.map((rule) => ({ code: rule.code, patterns: rule.paths.map(globPattern) }));
  return (d) => {
    if (d.severity !== "warning") return false;
    const path = relative(root, resolve(cwd, d.file)).split(sep).join("/");
    return compiled.some((rule) => rule.code === d.code && rule.patterns.some((p) => p.test(path)));
  };
}
