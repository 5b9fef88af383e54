/**
 * Schemas whose `const`s, `enum`s and `type`s leave no value, across a node
 * and the `allOf` parts it must also match: a `const` outside its own
 * `enum`, two parts with different `const`s, or a part's `enum` none of
 * whose values another part's `type` allows. A node's own `const` or `enum`
 * against its own `type` is satisfiable.ts's check; here at least two of the
 * keywords that clash are different ones, or in different parts.
 */
import { isDeepStrictEqual } from "node:util";
import type { JsonObject, JsonValue } from "../ir.js";
import type { JsonPath } from "../load/index.js";
import { isJsonObject } from "../schema/json.js";

type Report = (path: JsonPath, message: string) => void;

/** One keyword that limits the values: where it is, and how the message names it. */
interface Limit {
  readonly path: JsonPath;
  readonly text: string;
  /** The allOf part it is in (empty for the node itself). */
  readonly part: string;
}

interface ValueLimit extends Limit {
  readonly values: readonly JsonValue[];
}

interface TypeLimit extends Limit {
  readonly types: readonly string[];
}

/** The JSON Schema types of a value (Validation §6.1.1): an integral number is an integer, and a number too. */
export function typesOfValue(value: JsonValue): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  return [typeof value];
}

export function declaredTypes(node: JsonObject): string[] | undefined {
  if (typeof node.type === "string") return [node.type];
  return Array.isArray(node.type) ? node.type.filter((t): t is string => typeof t === "string") : undefined;
}

/** The const, enum and type of `node` and, through nested `allOf`, of every inline part; a `$ref` part is another schema's, and left out. */
function limitsOf(node: JsonObject, path: JsonPath, part: string, values: ValueLimit[], types: TypeLimit[]): void {
  const where = part === "" ? "" : ` (${part})`;
  if (Object.hasOwn(node, "const"))
    values.push({ path: [...path, "const"], text: `\`const: ${JSON.stringify(node.const)}\`${where}`, part, values: [node.const as JsonValue] });
  if (Array.isArray(node.enum)) values.push({ path: [...path, "enum"], text: `\`enum: ${JSON.stringify(node.enum)}\`${where}`, part, values: node.enum });
  const declared = declaredTypes(node);
  if (declared !== undefined)
    types.push({
      path: [...path, "type"],
      text: `\`type: ${declared.length === 1 ? declared[0] : `[${declared.join(", ")}]`}\`${where}`,
      part,
      types: declared,
    });
  if (!Array.isArray(node.allOf)) return;
  node.allOf.forEach((branch, i) => {
    if (isJsonObject(branch) && typeof branch.$ref !== "string")
      limitsOf(branch, [...path, "allOf", i], part === "" ? `allOf part ${i}` : `${part}, allOf part ${i}`, values, types);
  });
}

/** The values of `limits` that all of them allow, and the limit that left none, if one did. */
function common(limits: readonly ValueLimit[]): { values: readonly JsonValue[]; emptiedBy?: ValueLimit } {
  let values = (limits[0] as ValueLimit).values;
  for (const limit of limits.slice(1)) {
    values = values.filter((v) => limit.values.some((w) => isDeepStrictEqual(v, w)));
    if (values.length === 0) return { values, emptiedBy: limit };
  }
  return { values };
}

/** The allOf part of the node a limit is in at the top ("" for the node itself). */
const topPart = (limit: Limit): string => limit.part.split(", ")[0] as string;

/** Limits all in one part: that part's own visit reports them. */
const inOnePart = (involved: readonly Limit[]): boolean => involved.every((l) => topPart(l) === topPart(involved[0] as Limit));

export function checkValueLimits(node: JsonObject, path: JsonPath, report: Report): void {
  const values: ValueLimit[] = [];
  const types: TypeLimit[] = [];
  limitsOf(node, path, "", values, types);
  if (values.length === 0) return;
  const { values: left, emptiedBy } = common(values);
  if (emptiedBy !== undefined) {
    const involved = values.slice(0, values.indexOf(emptiedBy) + 1);
    if (inOnePart(involved) && topPart(emptiedBy) !== "") return;
    return report(emptiedBy.path, `${involved.map((l) => l.text).join(" and ")} have no value in common, so no value passes`);
  }
  let survivors = left;
  for (const [i, limit] of types.entries()) {
    survivors = survivors.filter((v) => typesOfValue(v).some((t) => limit.types.includes(t)));
    if (survivors.length > 0) continue;
    // The node's own values against its own type are satisfiable.ts's to report (checkValues).
    if (inOnePart([...values, ...types.slice(0, i + 1)])) return;
    return report(limit.path, `no value of ${values.map((l) => l.text).join(" and ")} is of ${limit.text}, so no value passes`);
  }
}
