/**
 * The edits the differential test applies to a contract, each at one schema
 * node: chosen by the caller's random numbers, applied in place, and named,
 * or undefined where the node does not take it. Edits of defaults and
 * headers pick their property from the whole contract, since few nodes take
 * them. Some change what the node
 * accepts; others (marked "≡") only spell the same thing another way.
 */
import { defaultFor } from "./defaults.js";
import { headerCandidates, headerFor, shortestOf, type Contract, type Obj } from "./pairs.js";

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

interface Site {
  readonly node: Obj;
  readonly label: string;
}

function sitesOf(schema: unknown, label: string, out: Site[]): void {
  if (!isObj(schema)) return;
  out.push({ node: schema, label });
  for (const key of ["properties"]) if (isObj(schema[key])) for (const [name, sub] of Object.entries(schema[key] as Obj)) sitesOf(sub, `${label}.${name}`, out);
  for (const key of ["items", "additionalProperties", "propertyNames"]) sitesOf(schema[key], `${label}/${key}`, out);
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach((sub, i) => sitesOf(sub, `${label}/${key}/${i}`, out));
}

function sites(c: Contract): Site[] {
  const out: Site[] = [];
  sitesOf(c.input, "input", out);
  sitesOf(c.output, "output", out);
  for (const [name, t] of Object.entries(c.types)) sitesOf(t, name, out);
  return out;
}

const typesOf = (n: Obj): string[] => (typeof n.type === "string" ? [n.type] : Array.isArray(n.type) ? (n.type as string[]) : []);
const setTypes = (n: Obj, types: string[]): void => {
  if (types.length === 0) delete n.type;
  else n.type = types.length === 1 ? types[0] : types;
};
const requiredOf = (n: Obj): string[] => (Array.isArray(n.required) ? (n.required as string[]) : []);
const props = (n: Obj): Obj | undefined => (isObj(n.properties) ? n.properties : undefined);
const firstProp = (n: Obj, k: number): string | undefined => {
  const names = Object.keys(props(n) ?? {});
  return names.length === 0 ? undefined : names[k % names.length];
};

/** Applied or not; or, for an edit that picks its own place in the contract, where it applied. */
type Edit = (n: Obj, k: number, site: Site, contract: Contract) => boolean | string;

/**
 * Defaults act on input: in the input and in the named types it may share,
 * not in the output's own schema, nor inside a union branch or an `allOf`
 * part, where Ajv does not fill them in and toolc refuses them.
 */
const takesDefaults = (site: Site): boolean => !site.label.startsWith("output") && !/\/(anyOf|oneOf|allOf)\//.test(site.label);

/** The k-th property schema, anywhere defaults act, that has a default (`has`) or not, and where it is; wherever the edit landed. */
function defaultable(c: Contract, k: number, has: boolean): { schema: Obj; label: string } | undefined {
  const found = sites(c)
    .filter(takesDefaults)
    .flatMap((site) => Object.entries(props(site.node) ?? {}).map(([name, schema]) => ({ schema, label: `${site.label}.${name}` })))
    .filter((p): p is { schema: Obj; label: string } => isObj(p.schema) && "default" in p.schema === has);
  return found[k % Math.max(1, found.length)];
}

/** The k-th top-level input property that may name a header, and has one (`has`) or not; wherever the edit landed, headers are the input root's. */
function headerProperty(c: Contract, k: number, has: boolean): string | undefined {
  const names = headerCandidates(c.input).filter((name) => "x-mcp-header" in ((props(c.input) as Obj)[name] as Obj) === has);
  return names.length === 0 ? undefined : names[k % names.length];
}

const headerOf = (c: Contract, name: string): Obj => (props(c.input) as Obj)[name] as Obj;

const numberKeys = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

export const EDITS: Readonly<Record<string, Edit>> = {
  "docs edited ≡": (n) => ((n.description = "edited"), true),
  "named type inlined ≡": (n, _k, _site, c) => {
    const name = typeof n.$ref === "string" ? /#\/(\w+)$/.exec(n.$ref)?.[1] : undefined;
    const target = name === undefined ? undefined : c.types[name];
    if (!isObj(target)) return false;
    delete n.$ref;
    Object.assign(n, structuredClone(target));
    return true;
  },
  "optional property added": (n) => typesOf(n).includes("object") && props(n) !== undefined && ((props(n) as Obj).s = { type: "string", maxLength: 5 }, true),
  "required property added": (n) => typesOf(n).includes("object") && props(n) !== undefined && (((props(n) as Obj).s = { type: "integer" }), (n.required = [...requiredOf(n), "s"]), true),
  "property removed": (n, k) => {
    const name = firstProp(n, k);
    if (name === undefined || Object.keys(props(n) ?? {}).length < 2) return false;
    delete (props(n) as Obj)[name];
    n.required = requiredOf(n).filter((r) => r !== name);
    return true;
  },
  "required toggled": (n, k) => {
    const name = firstProp(n, k);
    if (name === undefined) return false;
    const req = requiredOf(n);
    n.required = req.includes(name) ? req.filter((r) => r !== name) : [...req, name];
    return true;
  },
  "default removed": (_n, k, _site, c) => {
    const p = defaultable(c, k, true);
    return p !== undefined && (delete p.schema.default, p.label);
  },
  "default added": (_n, k, _site, c) => {
    const p = defaultable(c, k, false);
    const value = p === undefined ? undefined : defaultFor(p.schema);
    return p !== undefined && value !== undefined && ((p.schema.default = value), p.label);
  },
  "default changed": (_n, k, _site, c) => {
    const p = defaultable(c, k, true);
    const { default: current, ...schema } = p?.schema ?? {};
    const value = p === undefined ? undefined : defaultFor(schema, current);
    return p !== undefined && value !== undefined && ((p.schema.default = value), p.label);
  },
  "mcp header added": (_n, k, _site, c) => {
    const name = headerProperty(c, k, false);
    return name !== undefined && ((headerOf(c, name)["x-mcp-header"] = headerFor(name)), `input.${name}`);
  },
  "mcp header renamed": (_n, k, _site, c) => {
    const name = headerProperty(c, k, true);
    return name !== undefined && ((headerOf(c, name)["x-mcp-header"] = headerFor(name, "K")), `input.${name}`);
  },
  "mcp header removed": (_n, k, _site, c) => {
    const name = headerProperty(c, k, true);
    return name !== undefined && (delete headerOf(c, name)["x-mcp-header"], `input.${name}`);
  },
  "null toggled": (n) => {
    const types = typesOf(n);
    if (types.length === 0 || types.includes("object") || types.includes("array")) return false;
    setTypes(n, types.includes("null") ? types.filter((t) => t !== "null") : [...types, "null"]);
    return true;
  },
  "integer/number swapped": (n) => {
    const types = typesOf(n);
    const i = types.findIndex((t) => t === "integer" || t === "number");
    if (i < 0) return false;
    types[i] = types[i] === "integer" ? "number" : "integer";
    setTypes(n, types);
    return true;
  },
  "type dropped beside enum": (n) => Array.isArray(n.enum) && "type" in n && (delete n.type, true),
  "enum value removed": (n) => Array.isArray(n.enum) && n.enum.length >= 2 && ((n.enum = n.enum.slice(1)), true),
  "enum value added": (n) => Array.isArray(n.enum) && !n.enum.includes("zz") && ((n.enum = [...n.enum, "zz"]), true),
  "const changed": (n) => "const" in n && ((n.const = n.const === "a" ? "b" : "a"), true),
  "const as enum ≡": (n) => "const" in n && ((n.enum = [n.const]), delete n.const, true),
  "titled enum branch removed": (n) => {
    const key = Array.isArray(n.oneOf) ? "oneOf" : "anyOf";
    const list = n[key];
    return Array.isArray(list) && list.length >= 2 && list.every((b) => isObj(b) && "const" in b) && ((n[key] = list.slice(1)), true);
  },
  "titled enum branch added": (n) => {
    const key = Array.isArray(n.oneOf) ? "oneOf" : "anyOf";
    const list = n[key];
    return Array.isArray(list) && list.every((b) => isObj(b) && "const" in b) && !list.some((b) => (b as Obj).const === "zz") && ((n[key] = [...list, { const: "zz", title: "ZZ" }]), true);
  },
  "lower bound moved": (n, k) => {
    const key = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"].find((x) => typeof n[x] === "number");
    if (key === undefined) return false;
    n[key] = (n[key] as number) + (k % 2 === 0 ? 1 : -1);
    if (key.startsWith("min") && (n[key] as number) < 0) n[key] = 0;
    // Never above maxProperties: that object accepts nothing, which toolc refuses.
    if (key === "minProperties" && typeof n.maxProperties === "number") n[key] = Math.min(n[key] as number, n.maxProperties);
    return true;
  },
  "upper bound moved": (n, k) => {
    const key = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"].find((x) => typeof n[x] === "number");
    if (key === undefined) return false;
    const floors: Record<string, number> = { maxItems: (n.minItems as number | undefined) ?? 0, maxProperties: (n.minProperties as number | undefined) ?? 0, maxLength: shortestOf(n.format) };
    const floor = floors[key] ?? 0;
    n[key] = Math.max((n[key] as number) + (k % 2 === 0 ? 1 : -1), key.startsWith("max") && key !== "maximum" ? floor : -Infinity);
    return true;
  },
  "bound added": (n, k) => {
    const types = typesOf(n);
    if (types.includes("integer") || types.includes("number")) return !("maximum" in n) && !("exclusiveMaximum" in n) && ((n.maximum = 10 + (k % 3)), true);
    if (types.includes("string")) return !("maxLength" in n) && ((n.maxLength = Math.max(4, shortestOf(n.format))), true);
    return false;
  },
  "bound removed": (n) => {
    const key = [...numberKeys, "minLength", "maxLength", "maxItems", "minProperties", "maxProperties"].find((x) => x in n);
    return key !== undefined && (delete n[key], true);
  },
  "exclusive bound as inclusive ≡": (n) => {
    if (!typesOf(n).includes("integer") || typesOf(n).includes("number")) return false;
    if (typeof n.exclusiveMinimum === "number") return (n.minimum = n.exclusiveMinimum + 1), delete n.exclusiveMinimum, true;
    if (typeof n.minimum === "number") return (n.exclusiveMinimum = n.minimum - 1), delete n.minimum, true;
    return false;
  },
  "minProperties added": (n) => typesOf(n).includes("object") && !("minProperties" in n) && ((n.minProperties = 1), true),
  "multipleOf: 1 for integer ≡": (n) => {
    const types = typesOf(n);
    const i = types.indexOf("integer");
    if (i < 0 || "multipleOf" in n) return false;
    types[i] = "number";
    setTypes(n, types);
    n.multipleOf = 1;
    return true;
  },
  "multipleOf changed": (n, k) => typeof n.multipleOf === "number" && ((n.multipleOf = [n.multipleOf * 2, n.multipleOf / 2, 3][k % 3]), true),
  "multipleOf added": (n, k) => (typesOf(n).includes("integer") || typesOf(n).includes("number")) && !("multipleOf" in n) && ((n.multipleOf = [2, 0.5, 3][k % 3]), true),
  "no-op minLength ≡": (n) => typesOf(n).includes("string") && !("minLength" in n) && ((n.minLength = 0), true),
  "pattern changed": (n, k) => typeof n.pattern === "string" && ((n.pattern = ["^[a-z0-9]+$", "^[a-z]*$", "^a", "^[0-9]{2,5}$", "^(ord|inv)_[0-9]+$", "^[a-z]+$", "[a-z]"][k % 7]), true),
  "pattern added": (n, k) => typesOf(n).includes("string") && !("pattern" in n) && !("format" in n) && ((n.pattern = ["^[a-z]+$", "^a", "[0-9]"][k % 3]), true),
  "pattern removed": (n) => typeof n.pattern === "string" && (delete n.pattern, true),
  "format changed": (n, k) => {
    const format = ["uri", "uri-reference", "date", "email"][k % 4];
    return typeof n.format === "string" && shortestOf(format) <= ((n.maxLength as number | undefined) ?? Infinity) && ((n.format = format), true);
  },
  "format added": (n) => typesOf(n).includes("string") && !("format" in n) && !("pattern" in n) && shortestOf("date") <= ((n.maxLength as number | undefined) ?? Infinity) && ((n.format = "date"), true),
  "format removed": (n) => typeof n.format === "string" && (delete n.format, true),
  "uniqueItems toggled": (n) => typesOf(n).includes("array") && !("prefixItems" in n) && ((n.uniqueItems = n.uniqueItems !== true), true),
  "tuple grown": (n) => {
    if (!Array.isArray(n.prefixItems)) return false;
    n.prefixItems = [...n.prefixItems, { type: "string" }];
    n.minItems = (n.prefixItems as unknown[]).length;
    return true;
  },
  "tuple shrunk": (n) => {
    if (!Array.isArray(n.prefixItems) || n.prefixItems.length < 2) return false;
    n.prefixItems = n.prefixItems.slice(0, -1);
    n.minItems = (n.prefixItems as unknown[]).length;
    return true;
  },
  "one-item list as a tuple ≡": (n) => {
    if (!typesOf(n).includes("array") || !isObj(n.items) || n.minItems !== 1 || n.maxItems !== 1) return false;
    n.prefixItems = [n.items];
    n.items = false;
    delete n.maxItems;
    return true;
  },
  "list of one": (n) => typesOf(n).includes("array") && isObj(n.items) && !("prefixItems" in n) && ((n.minItems = 1), (n.maxItems = 1), delete n.uniqueItems, true),
  "object opened or closed": (n) => typesOf(n).includes("object") && !isObj(n.additionalProperties) && ((n.additionalProperties = n.additionalProperties !== true), true),
  "map value changed": (n) => isObj(n.additionalProperties) && ((n.additionalProperties = { type: "string" }), true),
  "propertyNames changed": (n) => typesOf(n).includes("object") && ((n.propertyNames = isObj(n.propertyNames) ? { maxLength: 2 } : { maxLength: 1 }), true),
  "branch removed": (n) => {
    const key = Array.isArray(n.anyOf) ? "anyOf" : Array.isArray(n.oneOf) ? "oneOf" : undefined;
    return key !== undefined && (n[key] as unknown[]).length >= 2 && ((n[key] = (n[key] as unknown[]).slice(0, -1)), true);
  },
  "branch added": (n, k) => {
    const key = Array.isArray(n.anyOf) ? "anyOf" : Array.isArray(n.oneOf) ? "oneOf" : undefined;
    return key !== undefined && ((n[key] = [...(n[key] as unknown[]), [{ type: "boolean" }, { type: "string", maxLength: 1 }, { type: "integer", minimum: 0 }][k % 3]]), true);
  },
  "oneOf/anyOf swapped": (n) => {
    if (Array.isArray(n.oneOf)) return (n.anyOf = n.oneOf), delete n.oneOf, true;
    if (Array.isArray(n.anyOf)) return (n.oneOf = n.anyOf), delete n.anyOf, true;
    return false;
  },
  "nullable type list as a union ≡": (n, k) => {
    const types = typesOf(n);
    if (types.length !== 2 || !types.includes("null") || "enum" in n || "const" in n || "default" in n) return false;
    const { type: _t, description: _d, ...constraints } = n;
    for (const key of Object.keys(constraints)) delete n[key];
    delete n.type;
    n[k % 2 === 0 ? "anyOf" : "oneOf"] = [{ type: types.find((t) => t !== "null"), ...constraints }, { type: "null" }];
    return true;
  },
  "allOf part's property removed": (n, k) => {
    if (!Array.isArray(n.allOf)) return false;
    const part = n.allOf[k % n.allOf.length];
    const name = isObj(part) ? firstProp(part, k) : undefined;
    if (!isObj(part) || name === undefined) return false;
    delete (props(part) as Obj)[name];
    part.required = requiredOf(part).filter((r) => r !== name);
    return true;
  },
  "allOf part added": (n) => Array.isArray(n.allOf) && ((n.allOf = [...n.allOf, { type: "object", properties: { t: { type: "boolean" } }, required: ["t"] }]), true),
  "object as an allOf of its parts ≡": (n) => {
    if (n.type !== "object" || !props(n) || ["additionalProperties", "propertyNames", "minProperties", "maxProperties"].some((key) => key in n)) return false;
    const names = Object.keys(props(n) as Obj);
    if (names.length < 2) return false;
    const [first, ...rest] = names;
    const part = (list: string[]) => ({ type: "object", properties: Object.fromEntries(list.map((x) => [x, (props(n) as Obj)[x]])), required: requiredOf(n).filter((r) => list.includes(r)) });
    const allOf = [part([first as string]), part(rest)];
    for (const key of Object.keys(n)) delete n[key];
    n.allOf = allOf;
    return true;
  },
};

const NAMES = Object.keys(EDITS);

/** Applies one edit, picked by `what`, at the site picked by `where`; its name, or undefined when it did not apply there. */
export function applyRandomEdit(c: Contract, where: number, what: number, how: number): string | undefined {
  const all = sites(c);
  for (let attempt = 0; attempt < 8; attempt++) {
    const site = all[(where + attempt * 7) % all.length] as Site;
    const name = NAMES[(what + attempt) % NAMES.length] as string;
    const applied = (EDITS[name] as Edit)(site.node, how, site, c);
    if (applied !== false) return `${name} at ${applied === true ? site.label : applied}`;
  }
  return undefined;
}
