/**
 * The rules of `toolc diff`: one id per kind of change, and what it means in
 * each direction. Input is what callers send, so narrowing it breaks them;
 * output is what callers receive, so widening it breaks them. Policy rules
 * judge the tool's behaviour rather than a schema. docs/evolution.md
 * documents every id listed here, and a test keeps the two in step.
 */

/**
 * breaking: a caller built against the base can fail (a value shows it, or the
 * schemas prove it). undecided: toolc can neither prove the change compatible
 * nor find such a value; the report says why, and `diff.undecided: fail`
 * makes it count as breaking. warning: compatible, but worth a look.
 */
export type Level = "breaking" | "undecided" | "warning" | "info";
/** Where a change applies: the input schema, the output schema, or the tool's policy. */
export type Direction = "input" | "output" | "tool";

/** The level of a schema change in each direction; null means the change is not reported there. */
export interface Levels {
  readonly input: Level | null;
  readonly output: Level | null;
}

/** Accepts fewer values than before: callers' old input may be refused. */
export const NARROWS: Levels = { input: "breaking", output: "info" };
/** Accepts more values than before: callers may receive values they do not expect. */
export const WIDENS: Levels = { input: "info", output: "breaking" };
/** Neither contains the other. */
export const CHANGES: Levels = { input: "breaking", output: "breaking" };
/** Not decidable from the schemas: reported, never passed silently. */
export const UNDECIDED: Levels = { input: "undecided", output: "undecided" };

export const SCHEMA_RULES = [
  "property-added-required",
  "property-added-optional",
  "property-added-open-object",
  "property-removed",
  "property-became-required",
  "property-became-optional",
  "type-narrowed",
  "type-widened",
  "type-changed",
  "enum-value-removed",
  "enum-value-added",
  "bound-tightened",
  "bound-loosened",
  "pattern-changed",
  "pattern-generalized",
  "format-changed",
  "branch-removed",
  "branch-added",
  "branch-added-may-overlap",
  "oneof-to-anyof",
  "anyof-to-oneof",
  "additional-properties-closed",
  "additional-properties-opened",
  "schema-accepts-nothing",
  "schema-accepted-nothing",
  "default-changed",
  "default-added",
  "default-removed",
  "mcp-header-added",
  "mcp-header-changed",
  "mcp-header-removed",
  "sensitive-marked",
  "sensitive-unmarked",
  "sensitive-withheld",
  "sensitive-delivered",
  "schema-change-undecided",
] as const;

export const POLICY_RULES = [
  "tool-removed",
  "tool-removed-after-sunset",
  "tool-added",
  "tool-deprecated",
  "tool-reactivated",
  "sunset-moved-earlier",
  "sunset-moved-later",
  "effect-more-severe",
  "effect-less-severe",
  "idempotent-removed",
  "idempotent-added",
  "open-world-added",
  "open-world-removed",
  "timeout-shortened",
  "timeout-lengthened",
  "retries-reduced",
  "retries-increased",
  "error-reason-added",
  "error-reason-removed",
  "scope-added",
  "scope-removed",
  "confirm-added",
  "confirm-removed",
  "rate-limit-added",
  "rate-limit-removed",
  "rate-limit-tightened",
  "rate-limit-loosened",
  "loading-changed",
  "idempotency-key-changed",
  "version-bumped",
  "version-lowered",
  "content-kind-added",
  "content-kind-removed",
  "icons-changed",
  "dialect-changed",
] as const;

export type SchemaRule = (typeof SCHEMA_RULES)[number];
export type PolicyRule = (typeof POLICY_RULES)[number];
export type RuleId = SchemaRule | PolicyRule;

export const RULE_IDS: readonly RuleId[] = [...SCHEMA_RULES, ...POLICY_RULES];

export function isRuleId(value: string): value is RuleId {
  return (RULE_IDS as readonly string[]).includes(value);
}

const LEVEL_ORDER: Record<Level, number> = { info: 0, warning: 1, undecided: 2, breaking: 3 };

export function worstLevel(levels: readonly Level[]): Level {
  return levels.reduce<Level>((worst, l) => (LEVEL_ORDER[l] > LEVEL_ORDER[worst] ? l : worst), "info");
}
