// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * OpenAI's strict mode cannot leave a property out: every property is
 * required, and an optional one is sent as required-and-nullable. A null in
 * such a property means "not given", so it is removed before validation and
 * the contract's default applies. A property whose own schema allows null
 * keeps its null. The compiler writes where those properties are as a plan;
 * this module applies it to a call's arguments.
 */

/** Where nulls mean "absent" in one schema node; the compiler derives it from the contract. */
export interface NullPlan {
  /** Properties of this object whose null means the property was left out. */
  readonly absentIfNull?: readonly string[];
  readonly properties?: { readonly [name: string]: NullPlan };
  readonly items?: NullPlan;
  /** One entry per `anyOf` branch that is a closed object: its property names and its plan. */
  readonly anyOf?: readonly {
    readonly keys: readonly string[];
    readonly plan: NullPlan;
  }[];
  /** A `$defs` entry of the same schema. */
  readonly ref?: string;
}

/** One tool's plan: its root and the plans of its `$defs`. */
export interface NullPlanSet {
  readonly root: NullPlan;
  readonly defs: { readonly [name: string]: NullPlan };
}

type JsonRecord = { [key: string]: unknown };

const isRecord = (v: unknown): v is JsonRecord =>
  v !== null && typeof v === "object" && !Array.isArray(v);

function sameKeys(value: JsonRecord, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return (
    own.length === keys.length && keys.every((k) => Object.hasOwn(value, k))
  );
}

function resolve(
  plan: NullPlan,
  defs: NullPlanSet["defs"],
  seen: Set<string>,
): NullPlan | undefined {
  let current: NullPlan | undefined = plan;
  // A chain of refs that loops back on itself describes no value: stop rather than spin.
  while (current?.ref !== undefined && !seen.has(current.ref)) {
    seen.add(current.ref);
    current = Object.hasOwn(defs, current.ref) ? defs[current.ref] : undefined;
  }
  return current?.ref === undefined ? current : undefined;
}

function applyToObject(
  value: JsonRecord,
  plan: NullPlan,
  defs: NullPlanSet["defs"],
): JsonRecord {
  const absent = new Set(plan.absentIfNull ?? []);
  const entries: [string, unknown][] = [];
  for (const [key, child] of Object.entries(value)) {
    if (child === null && absent.has(key)) continue;
    const childPlan =
      plan.properties !== undefined && Object.hasOwn(plan.properties, key)
        ? plan.properties[key]
        : undefined;
    entries.push([
      key,
      childPlan === undefined ? child : apply(child, childPlan, defs),
    ]);
  }
  // fromEntries defines own properties, so a "__proto__" key stays data.
  return Object.fromEntries(entries);
}

function apply(
  value: unknown,
  planOrRef: NullPlan,
  defs: NullPlanSet["defs"],
): unknown {
  const plan = resolve(planOrRef, defs, new Set());
  if (plan === undefined) return value;
  if (Array.isArray(value))
    return plan.items === undefined
      ? value
      : value.map((item) => apply(item, plan.items as NullPlan, defs));
  if (!isRecord(value)) return value;
  // The branch a strict model filled in has exactly that branch's properties.
  const branch = plan.anyOf?.find((b) => sameKeys(value, b.keys));
  const own =
    plan.absentIfNull !== undefined || plan.properties !== undefined
      ? applyToObject(value, plan, defs)
      : value;
  return branch === undefined ? own : apply(own, branch.plan, defs);
}

/**
 * `args` with every null that stands for a left-out optional property
 * removed; a new value, `args` is not changed. Anything it cannot walk (say,
 * nesting deeper than the stack) goes on unchanged, and the validator decides.
 */
export function nullsToAbsent(
  args: unknown,
  plans: NullPlanSet | undefined,
): unknown {
  if (plans === undefined) return args;
  try {
    return apply(args, plans.root, plans.defs);
  } catch {
    return args;
  }
}
