/**
 * Schemas no value can pass, by construction: bounds that exclude each
 * other, a `const` or `enum` value its own `type` refuses, a required
 * property the object forbids, and union branches that need a property the
 * object's closing rule rejects. Each is a located error: a tool whose input
 * or output accepts nothing would compile, and every call would fail.
 */
import { Codes, error } from "../diagnostics.js";
import type { Diagnostic, JsonObject, JsonSchema, JsonValue } from "../ir.js";
import type { JsonPath, YamlSource } from "../load/index.js";
import { forEachSchema, isObjectSchema, UNION_KEYWORDS } from "../schema/walk.js";
import { isJsonObject } from "../schema/json.js";

type Report = (path: JsonPath, message: string) => void;

const num = (v: JsonValue | undefined): number | undefined => (typeof v === "number" ? v : undefined);

/** The JSON Schema type of a value (Validation §6.1.1): an integral number is an integer, and a number too. */
function typesOfValue(value: JsonValue): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  return [typeof value];
}

function declaredTypes(node: JsonObject): string[] | undefined {
  if (typeof node.type === "string") return [node.type];
  return Array.isArray(node.type) ? node.type.filter((t): t is string => typeof t === "string") : undefined;
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
  const lows = [["minimum", num(node.minimum), false], ["exclusiveMinimum", num(node.exclusiveMinimum), true]] as const;
  const highs = [["maximum", num(node.maximum), false], ["exclusiveMaximum", num(node.exclusiveMaximum), true]] as const;
  for (const [lowKey, lo, lowOpen] of lows) {
    for (const [highKey, hi, highOpen] of highs) {
      if (lo === undefined || hi === undefined) continue;
      if (lo > hi || (lo === hi && (lowOpen || highOpen))) report([...path, lowKey], `\`${lowKey}: ${lo}\` and \`${highKey}: ${hi}\` leave no number between them`);
    }
  }
  const types = declaredTypes(node);
  const lo = num(node.minimum);
  const hi = num(node.maximum);
  if (types?.length === 1 && types[0] === "integer" && lo !== undefined && hi !== undefined && lo <= hi && Math.ceil(lo) > Math.floor(hi)) {
    report([...path, "minimum"], `no integer lies between \`minimum: ${lo}\` and \`maximum: ${hi}\``);
  }
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
    if (properties[name] === false) report([...path, "required", i], `required property \`${name}\` is \`false\` in \`properties\`: the object both needs and forbids it`);
  });
  const max = num(node.maxProperties);
  if (max !== undefined && new Set(required).size > max) report([...path, "maxProperties"], `\`maxProperties: ${max}\` is below the ${new Set(required).size} required properties`);
  if (node.unevaluatedProperties !== false) return;
  const allowed = evaluatedNames(node);
  if (allowed === undefined) return;
  required.forEach((name, i) => {
    if (!allowed.has(name)) report([...path, "required", i], `required property \`${name}\` is declared neither in \`properties\` nor in any branch, and the object is closed, so no value passes`);
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
    if (name !== undefined) report([...path, "allOf", i], `this branch requires \`${name}\`, which the object's \`additionalProperties: false\` forbids (it is not in the object's own \`properties\`), so no value passes`);
  });
  for (const keyword of UNION_KEYWORDS) {
    const branches = Array.isArray(node[keyword]) ? (node[keyword] as JsonValue[]) : [];
    const names = branches.map(forbidden);
    if (branches.length > 0 && names.every((n) => n !== undefined)) {
      report([...path, keyword], `every branch requires a property the object's \`additionalProperties: false\` forbids (${[...new Set(names)].map((n) => `\`${n}\``).join(", ")}), so no value passes; declare them in the object's \`properties\`, or leave \`additionalProperties\` out and toolc closes the object over its branches`);
    }
  }
}

export function checkSatisfiable(schema: JsonSchema, root: JsonPath, file: YamlSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report: Report = (path, message) => out.push(error(file.locate(path), Codes.unsatisfiable, message));
  forEachSchema(schema, root, (node, path) => {
    checkBounds(node, path, report);
    checkValues(node, path, report);
    checkRequired(node, path, report);
    checkBranchesAgainstClosing(node, path, report);
  });
  return out;
}
