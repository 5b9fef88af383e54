/**
 * Edits of a served schema, the kind contracts see in practice: a property
 * added, removed or made (not) required, a type narrowed or widened, an
 * enum value or a bound added or removed, a union branch added or removed,
 * an object opened or closed, a docs edit. Each applies at one schema node
 * and returns the edited copy, or undefined where it does not apply.
 */
type Obj = { [key: string]: unknown };

export interface Site {
  readonly path: readonly (string | number)[];
  readonly node: Obj;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Every schema node below `schema`, with its path, through the keywords that hold subschemas. */
export function sites(schema: Obj, path: readonly (string | number)[] = []): Site[] {
  const out: Site[] = [{ path, node: schema }];
  for (const key of ["properties", "$defs"]) {
    const map = schema[key];
    if (isObj(map)) for (const [name, sub] of Object.entries(map)) if (isObj(sub)) out.push(...sites(sub, [...path, key, name]));
  }
  for (const key of ["items", "additionalProperties"]) if (isObj(schema[key])) out.push(...sites(schema[key] as Obj, [...path, key]));
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((sub, i) => isObj(sub) && out.push(...sites(sub, [...path, key, i])));
  }
  return out;
}

function nodeAt(root: Obj, path: readonly (string | number)[]): Obj {
  let node: unknown = root;
  for (const segment of path) node = (node as Record<string | number, unknown>)[segment];
  return node as Obj;
}

export type Mutation = (node: Obj) => boolean;

const typesOf = (node: Obj): string[] => (typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? (node.type as string[]) : []);
const isClosedObject = (node: Obj): boolean => typesOf(node).includes("object") && node.additionalProperties === false;
const firstProperty = (node: Obj): string | undefined => (isObj(node.properties) ? Object.keys(node.properties)[0] : undefined);
const requiredList = (node: Obj): string[] => (Array.isArray(node.required) ? (node.required as string[]) : []);
const plainString = (node: Obj): boolean => typesOf(node).length === 1 && node.type === "string" && !("enum" in node) && !("const" in node) && !("pattern" in node) && !("format" in node) && !("maxLength" in node);

export const MUTATIONS: Readonly<Record<string, Mutation>> = {
  "docs edited": (n) => ((n.description = `${String(n.description ?? "")} (edited)`), true),
  "optional property added": (n) => isClosedObject(n) && ((n.properties = { ...(isObj(n.properties) ? n.properties : {}), zz_new: { type: "string" } }), true),
  "required property added": (n) => isClosedObject(n) && ((n.properties = { ...(isObj(n.properties) ? n.properties : {}), zz_new: { type: "string" } }), (n.required = [...requiredList(n), "zz_new"]), true),
  "property removed": (n) => {
    const name = firstProperty(n);
    if (name === undefined) return false;
    delete (n.properties as Obj)[name];
    if (Array.isArray(n.required)) n.required = requiredList(n).filter((r) => r !== name);
    return true;
  },
  "required toggled": (n) => {
    const name = firstProperty(n);
    if (name === undefined) return false;
    const req = requiredList(n);
    n.required = req.includes(name) ? req.filter((r) => r !== name) : [...req, name];
    return true;
  },
  "null toggled": (n) => {
    const types = typesOf(n);
    if (types.length === 0 || "enum" in n || "const" in n) return false;
    n.type = types.includes("null") ? types.filter((t) => t !== "null") : [...types, "null"];
    if (Array.isArray(n.type) && n.type.length === 1) n.type = n.type[0];
    return true;
  },
  "integer/number swapped": (n) => {
    if (n.type === "integer") return (n.type = "number"), true;
    if (n.type === "number") return (n.type = "integer"), true;
    return false;
  },
  "enum value removed": (n) => Array.isArray(n.enum) && n.enum.length >= 2 && ((n.enum = n.enum.slice(0, -1)), true),
  "enum value added": (n) => Array.isArray(n.enum) && n.enum.every((v) => typeof v === "string") && ((n.enum = [...n.enum, "zz_new"]), true),
  "maxLength added": (n) => plainString(n) && ((n.maxLength = Math.max(2, typeof n.minLength === "number" ? n.minLength : 0)), true),
  "bound removed": (n) => {
    const key = ["minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "pattern", "format"].find((k) => k in n);
    return key !== undefined && (delete n[key], true);
  },
  "nullable type list written as anyOf": (n) => {
    const types = typesOf(n);
    if (types.length !== 2 || !types.includes("null") || "enum" in n || "const" in n || "anyOf" in n) return false;
    const { type: _type, description: _description, default: _default, ...constraints } = n;
    for (const key of Object.keys(constraints)) delete n[key];
    delete n.type;
    n.anyOf = [{ type: types.find((t) => t !== "null"), ...constraints }, { type: "null" }];
    return true;
  },
  "anyOf branch removed": (n) => Array.isArray(n.anyOf) && n.anyOf.length >= 2 && ((n.anyOf = n.anyOf.slice(0, -1)), true),
  "anyOf branch added": (n) => Array.isArray(n.anyOf) && !n.anyOf.some((b) => isObj(b) && b.type === "boolean") && ((n.anyOf = [...n.anyOf, { type: "boolean" }]), true),
  "oneOf branch removed": (n) => Array.isArray(n.oneOf) && n.oneOf.length >= 2 && ((n.oneOf = n.oneOf.slice(0, -1)), true),
  "object opened or closed": (n) => typesOf(n).includes("object") && ((n.additionalProperties = n.additionalProperties === false), true),
};

/** The edited copy of `root`, with `mutation` applied at `path`, or undefined when it does not apply there. */
export function mutate(root: Obj, path: readonly (string | number)[], mutation: Mutation): Obj | undefined {
  const copy = structuredClone(root);
  return mutation(nodeAt(copy, path)) ? copy : undefined;
}
