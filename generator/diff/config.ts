/**
 * The `diff:` section of toolc.config.yaml: which rules are off, for which
 * tools, in the spirit of buf's `except` and `ignore`:
 *
 *   diff:
 *     undecided: fail                      # undecided changes count as breaking (default: warn)
 *     except: [default-changed]            # rules off for every tool
 *     ignore: [legacy_search]              # tools not checked at all
 *     ignore_only:                         # a rule off for some tools only
 *       enum-value-added: [list_orders]
 *
 * `parseDiffConfig` is pure: it gets the parsed section and a way to locate
 * its nodes, so any loader of the config file can hand it over.
 */
import { Codes, error } from "../diagnostics.js";
import type { LoadedConfig } from "../config/load.js";
import type { Diagnostic, SourceLocation } from "../ir.js";
import { didYouMean } from "../load/suggest.js";
import { isJsonObject } from "../schema/json.js";
import { isRuleId, RULE_IDS, type RuleId } from "./rules.js";

/** What an undecided change does to the exit status: nothing (warn), or what a breaking one does (fail). */
export type UndecidedPolicy = "warn" | "fail";

export interface DiffConfig {
  readonly undecided: UndecidedPolicy;
  readonly except: ReadonlySet<RuleId>;
  readonly ignore: ReadonlySet<string>;
  readonly ignoreOnly: ReadonlyMap<RuleId, ReadonlySet<string>>;
}

export const EMPTY_DIFF_CONFIG: DiffConfig = { undecided: "warn", except: new Set(), ignore: new Set(), ignoreOnly: new Map() };

/** The JSON Schema of the section, for the config file's schema. */
export const DIFF_CONFIG_SCHEMA = {
  type: "object",
  description:
    "toolc diff: what an undecided change does (undecided), rules turned off everywhere (except), tools not checked (ignore), and rules turned off for some tools (ignore_only).",
  properties: {
    undecided: {
      enum: ["warn", "fail"],
      description:
        "warn (default): an undecided change is reported and the exit status is as if it were compatible. fail: it counts as breaking, so it exits 1 unless the tool's version went up.",
    },
    except: { type: "array", items: { enum: RULE_IDS } },
    ignore: { type: "array", items: { type: "string" } },
    ignore_only: { type: "object", propertyNames: { enum: RULE_IDS }, additionalProperties: { type: "array", items: { type: "string" } } },
  },
  additionalProperties: false,
} as const;

const SECTION_KEYS = ["undecided", "except", "ignore", "ignore_only"];

type Locate = (path: readonly (string | number)[]) => SourceLocation;

function stringList(value: unknown, path: readonly (string | number)[], locate: Locate, out: Diagnostic[]): string[] {
  if (!Array.isArray(value)) {
    out.push(error(locate(path), Codes.invalidValue, `\`diff.${path.join(".")}\` must be a list of names`));
    return [];
  }
  return value.filter((item, i) => {
    if (typeof item === "string") return true;
    out.push(error(locate([...path, i]), Codes.invalidValue, `\`diff.${path.join(".")}\` must hold names (strings)`));
    return false;
  });
}

function ruleId(name: string, path: readonly (string | number)[], locate: Locate, out: Diagnostic[]): RuleId | undefined {
  if (isRuleId(name)) return name;
  const hint = didYouMean(name, RULE_IDS) || "; docs/evolution.md lists the rules";
  out.push(error(locate(path), Codes.invalidValue, `unknown diff rule \`${name}\`${hint}`));
  return undefined;
}

export function parseDiffConfig(section: unknown, locate: Locate): { config: DiffConfig; diagnostics: Diagnostic[] } {
  const out: Diagnostic[] = [];
  if (section === undefined || section === null) return { config: EMPTY_DIFF_CONFIG, diagnostics: out };
  if (!isJsonObject(section))
    return {
      config: EMPTY_DIFF_CONFIG,
      diagnostics: [error(locate([]), Codes.invalidValue, "`diff` must be a map with `undecided`, `except`, `ignore` or `ignore_only`")],
    };
  for (const key of Object.keys(section)) {
    if (!SECTION_KEYS.includes(key)) out.push(error(locate([key]), Codes.unknownKey, `unknown key \`${key}\` in \`diff\`${didYouMean(key, SECTION_KEYS)}`));
  }
  let undecided: UndecidedPolicy = "warn";
  if (section.undecided === "warn" || section.undecided === "fail") undecided = section.undecided;
  else if (section.undecided !== undefined) out.push(error(locate(["undecided"]), Codes.invalidValue, "`diff.undecided` must be `warn` or `fail`"));
  const except = new Set<RuleId>();
  if (section.except !== undefined) {
    stringList(section.except, ["except"], locate, out).forEach((name, i) => {
      const id = ruleId(name, ["except", i], locate, out);
      if (id) except.add(id);
    });
  }
  const ignore = new Set(section.ignore === undefined ? [] : stringList(section.ignore, ["ignore"], locate, out));
  const ignoreOnly = new Map<RuleId, Set<string>>();
  if (section.ignore_only !== undefined && !isJsonObject(section.ignore_only)) {
    out.push(error(locate(["ignore_only"]), Codes.invalidValue, "`diff.ignore_only` must map rule ids to lists of tool names"));
  } else if (section.ignore_only !== undefined) {
    for (const [name, tools] of Object.entries(section.ignore_only)) {
      const id = ruleId(name, ["ignore_only", name], locate, out);
      const list = stringList(tools, ["ignore_only", name], locate, out);
      if (id) ignoreOnly.set(id, new Set(list));
    }
  }
  return { config: { undecided, except, ignore, ignoreOnly }, diagnostics: out };
}

/** Whether `rule` is reported for `tool` under this config. */
export function ruleApplies(config: DiffConfig, rule: RuleId, tool: string): boolean {
  return !config.except.has(rule) && !config.ignore.has(tool) && !(config.ignoreOnly.get(rule)?.has(tool) ?? false);
}

/** The `diff:` section of the config file read for this run, checked by its own parser. */
export function diffConfigOf(loaded: LoadedConfig | undefined): { config: DiffConfig; diagnostics: readonly Diagnostic[] } {
  if (!loaded) return { config: EMPTY_DIFF_CONFIG, diagnostics: [] };
  // A rule id under ignore_only is a key: point at it, not at its list.
  const atKey = (p: readonly (string | number)[]): boolean => p.length === 2 && p[0] === "ignore_only";
  return parseDiffConfig(loaded.values.diff, (p) => loaded.locatePath(["diff", ...p], { key: atKey(p) }));
}
