/**
 * Schemas no value can pass, by construction: bounds that exclude each
 * other (with no multiple of `multipleOf`, or no integer, between them), a
 * `const` or `enum` value its own `type` refuses (and, in
 * satisfiable-values.ts, `const`s, `enum`s and `type`s that clash across a
 * node and its `allOf` parts), a length no string of the `format` or
 * `pattern` has, a required property the object forbids, more properties
 * required than a closed object can hold, and union branches that need a
 * property the object's closing rule rejects. Each is a located error: a
 * tool whose input or output accepts nothing would compile, and every call
 * would fail. What rules cannot decide (two patterns no string matches both)
 * is left to the examples.
 */
import { Codes, error } from "../diagnostics.js";
import { commonStep, snapToStep } from "../schema/decimal.js";
import { patternMinLength } from "../schema/pattern.js";
import type { Diagnostic, JsonObject, JsonSchema, JsonValue } from "../ir.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import { forEachSchema, isObjectSchema, UNION_KEYWORDS } from "../schema/walk.js";
import { isJsonObject } from "../schema/json.js";
import { FORMAT_LENGTHS } from "./format-lengths.js";
import { checkValueLimits, declaredTypes, typesOfValue } from "./satisfiable-values.js";

type Report = (path: JsonPath, message: string) => void;

const num = (v: JsonValue | undefined): number | undefined => (typeof v === "number" ? v : undefined);

/** Whether every value the node's `type` allows is of `kinds`: only then can keywords for those kinds alone leave nothing. */
function onlyOf(node: JsonObject, ...kinds: string[]): boolean {
  const types = declaredTypes(node);
  return types !== undefined && types.length > 0 && types.every((t) => kinds.includes(t));
}

/** Lower and upper bounds that no number, length or count can meet at once. */
function checkBounds(node: JsonObject, path: JsonPath, report: Report): void {
  const pairs: [string, string, string][] = [
    ["minLength", "maxLength", "no string is that long and that short"],
    ["minItems", "maxItems", "no array has that many items and that few"],
    ["minProperties", "maxProperties", "no object has that many properties and that few"],
  ];
  for (const [low, high, why] of pairs) {
    const [lo, hi] = [num(node[low]), num(node[high])];
    if (lo !== undefined && hi !== undefined && lo > hi) report([...path, low], `\`${low}: ${lo}\` is above \`${high}: ${hi}\`: ${why}`);
  }
  const lows = [
    ["minimum", num(node.minimum), false],
    ["exclusiveMinimum", num(node.exclusiveMinimum), true],
  ] as const;
  const highs = [
    ["maximum", num(node.maximum), false],
    ["exclusiveMaximum", num(node.exclusiveMaximum), true],
  ] as const;
  for (const [lowKey, lo, lowOpen] of lows) {
    for (const [highKey, hi, highOpen] of highs) {
      if (lo === undefined || hi === undefined) continue;
      if (lo > hi || (lo === hi && (lowOpen || highOpen)))
        report([...path, lowKey], `\`${lowKey}: ${lo}\` and \`${highKey}: ${hi}\` leave no number between them`);
    }
  }
  checkMultiples(node, path, report);
}

/** The tighter of an inclusive and an exclusive bound on one side, as `[keyword, value, exclusive]`. */
function tighterBound(node: JsonObject, lower: boolean): [string, number, boolean] | undefined {
  const [inclusive, exclusive] = lower ? ["minimum", "exclusiveMinimum"] : ["maximum", "exclusiveMaximum"];
  const a = num(node[inclusive]);
  const b = num(node[exclusive]);
  if (a === undefined) return b === undefined ? undefined : [exclusive, b, true];
  if (b === undefined) return [inclusive, a, false];
  const exclusiveWins = lower ? b >= a : b <= a;
  return exclusiveWins ? [exclusive, b, true] : [inclusive, a, false];
}

/**
 * Bounds with no allowed number between them: no multiple of `multipleOf`,
 * or, for `type: integer`, no integer (a multiple of 1), decided on the
 * written decimals as the validators decide (0.3 is a multiple of 0.1).
 * Bounds that cross are checkBounds' own report.
 */
function checkMultiples(node: JsonObject, path: JsonPath, report: Report): void {
  const integer = onlyOf(node, "integer");
  const step = num(node.multipleOf);
  if ((!integer && step === undefined) || !onlyOf(node, "integer", "number")) return;
  const low = tighterBound(node, true);
  const high = tighterBound(node, false);
  if (low === undefined || high === undefined || low[1] > high[1] || (low[1] === high[1] && (low[2] || high[2]))) return;
  const lattice = commonStep(integer ? [step ?? 1, 1] : [step as number]);
  if (lattice === undefined) return;
  const first = snapToStep(low[1], lattice, true, low[2]);
  const last = snapToStep(high[1], lattice, false, high[2]);
  if (first === undefined || last === undefined || first <= last) return;
  const what = `${integer ? "integer" : "number"}${step === undefined ? "" : ` that is a multiple of ${step}`}`;
  report([...path, step === undefined ? low[0] : "multipleOf"], `no ${what} lies between \`${low[0]}: ${low[1]}\` and \`${high[0]}: ${high[1]}\``);
}

/** A `minLength` longer, or a `maxLength` shorter, than every string the `format` or `pattern` allows. */
function checkLengths(node: JsonObject, path: JsonPath, report: Report): void {
  if (!onlyOf(node, "string")) return;
  const min = num(node.minLength);
  const max = num(node.maxLength);
  const format = typeof node.format === "string" ? FORMAT_LENGTHS[node.format] : undefined;
  if (format !== undefined && max !== undefined && format.min > max)
    report(
      [...path, "maxLength"],
      `every \`format: ${node.format as string}\` string is at least ${format.min} characters, above \`maxLength: ${max}\`, so no value passes`,
    );
  if (format !== undefined && min !== undefined && format.max < min)
    report(
      [...path, "minLength"],
      `every \`format: ${node.format as string}\` string is at most ${format.max} characters, below \`minLength: ${min}\`, so no value passes`,
    );
  const shortest = typeof node.pattern === "string" ? patternMinLength(node.pattern) : 0;
  if (max !== undefined && shortest > max)
    report(
      [...path, "pattern"],
      `\`pattern: ${JSON.stringify(node.pattern)}\` matches no string shorter than ${shortest} characters, above \`maxLength: ${max}\`, so no value passes`,
    );
}

/**
 * A `const`, or an `enum` none of whose values, its own `type` refuses. An
 * enum with some values of another type still accepts the others: those
 * values are only dead, and `toolc diff` compares such sets as they are.
 */
function checkValues(node: JsonObject, path: JsonPath, report: Report): void {
  const types = declaredTypes(node);
  if (types === undefined) return;
  const refused = (value: JsonValue): boolean => !typesOfValue(value).some((t) => types.includes(t));
  const typeText = types.length === 1 ? `\`type: ${types[0]}\`` : `\`type: [${types.join(", ")}]\``;
  if (Object.hasOwn(node, "const") && refused(node.const as JsonValue)) {
    report([...path, "const"], `\`const: ${JSON.stringify(node.const)}\` is not of ${typeText}, so no value passes`);
  }
  if (Array.isArray(node.enum) && node.enum.length > 0 && node.enum.every(refused)) {
    report([...path, "enum"], `no \`enum\` value is of ${typeText}, so no value passes; fix the values or widen \`type\``);
  }
}

function propertiesOf(node: JsonValue): JsonObject {
  return isJsonObject(node) && isJsonObject(node.properties) ? node.properties : {};
}

function requiredOf(node: JsonValue): string[] {
  return isJsonObject(node) && Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === "string") : [];
}

/**
 * The property names an object closed with `unevaluatedProperties: false`
 * can hold: its own and those of every branch, through nested compositions;
 * undefined when a branch is a `$ref` (its properties are another schema's).
 */
function evaluatedNames(node: JsonObject): Set<string> | undefined {
  const names = new Set(Object.keys(propertiesOf(node)));
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    for (const branch of Array.isArray(node[keyword]) ? (node[keyword] as JsonValue[]) : []) {
      if (!isJsonObject(branch) || typeof branch.$ref === "string") return undefined;
      const inner = evaluatedNames(branch);
      if (inner === undefined) return undefined;
      for (const name of inner) names.add(name);
    }
  }
  return names;
}

/** Required properties the object itself forbids, and more required than `maxProperties` allows. */
function checkRequired(node: JsonObject, path: JsonPath, report: Report): void {
  const properties = propertiesOf(node);
  const required = requiredOf(node);
  required.forEach((name, i) => {
    if (properties[name] === false)
      report([...path, "required", i], `required property \`${name}\` is \`false\` in \`properties\`: the object both needs and forbids it`);
  });
  const max = num(node.maxProperties);
  if (max !== undefined && new Set(required).size > max)
    report([...path, "maxProperties"], `\`maxProperties: ${max}\` is below the ${new Set(required).size} required properties`);
  checkMinProperties(node, path, report);
  if (node.unevaluatedProperties !== false) return;
  const allowed = evaluatedNames(node);
  if (allowed === undefined) return;
  required.forEach((name, i) => {
    if (!allowed.has(name))
      report(
        [...path, "required", i],
        `required property \`${name}\` is declared neither in \`properties\` nor in any branch, and the object is closed, so no value passes`,
      );
  });
}

/**
 * With `additionalProperties: false`, only the object's own `properties` may
 * appear, whatever its branches declare (Core §10.3.2.3): a branch that
 * requires another name can never match. All allOf branches must match,
 * and at least one union branch.
 */
function checkBranchesAgainstClosing(node: JsonObject, path: JsonPath, report: Report): void {
  if (node.additionalProperties !== false || !isObjectSchema(node)) return;
  const own = propertiesOf(node);
  const forbidden = (branch: JsonValue): string | undefined => requiredOf(branch).find((name) => !Object.hasOwn(own, name));
  (Array.isArray(node.allOf) ? node.allOf : []).forEach((branch, i) => {
    const name = forbidden(branch);
    if (name !== undefined)
      report(
        [...path, "allOf", i],
        `this branch requires \`${name}\`, which the object's \`additionalProperties: false\` forbids (it is not in the object's own \`properties\`), so no value passes`,
      );
  });
  for (const keyword of UNION_KEYWORDS) {
    const branches = Array.isArray(node[keyword]) ? (node[keyword] as JsonValue[]) : [];
    const names = branches.map(forbidden);
    if (branches.length > 0 && names.every((n) => n !== undefined)) {
      report(
        [...path, keyword],
        `every branch requires a property the object's \`additionalProperties: false\` forbids (${[...new Set(names)].map((n) => `\`${n}\``).join(", ")}), so no value passes; declare them in the object's \`properties\`, or leave \`additionalProperties\` out and toolc closes the object over its branches`,
      );
    }
  }
}

/** A `minProperties` above the number of names a closed object can hold (its declared properties not set to `false`, or for `unevaluatedProperties: false` its branches' too). */
function checkMinProperties(node: JsonObject, path: JsonPath, report: Report): void {
  const min = num(node.minProperties);
  if (min === undefined || !onlyOf(node, "object") || "patternProperties" in node) return;
  const names =
    node.additionalProperties === false ? new Set(Object.keys(propertiesOf(node))) : node.unevaluatedProperties === false ? evaluatedNames(node) : undefined;
  if (names === undefined) return;
  const holdable = [...names].filter((name) => propertiesOf(node)[name] !== false).length;
  if (min > holdable)
    report([...path, "minProperties"], `\`minProperties: ${min}\` is above the ${holdable} properties the closed object can hold, so no value passes`);
}

export function checkSatisfiable(schema: JsonSchema, root: JsonPath, file: YamlSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  // A clash inside an allOf part is found from the part and from each node above it: reported once.
  const reported = new Set<string>();
  const report: Report = (path, message) => {
    const key = JSON.stringify([path, message]);
    if (reported.has(key)) return;
    reported.add(key);
    out.push(error(file.locate(path), Codes.unsatisfiable, message));
  };
  forEachSchema(schema, root, (node, path) => {
    checkBounds(node, path, report);
    checkLengths(node, path, report);
    checkValues(node, path, report);
    checkValueLimits(node, path, report);
    checkRequired(node, path, report);
    checkBranchesAgainstClosing(node, path, report);
  });
  return out;
}
