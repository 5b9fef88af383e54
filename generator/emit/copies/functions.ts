/**
 * The copy functions of one schema: one function per object or array shape,
 * reading each expected property by name (so each read site sees one
 * shape), each value once. An object whose keys are not the shape's
 * properties in the shape's order (some may be missing) is copied by the
 * generic walk of runtime/json.ts instead, so the copy never depends on the
 * schema being right; the schema only makes the common case fast. See
 * runtime/json.ts for what a copy guarantees.
 *
 * Used for a tool's chunk (emit/copies.ts) and for the shared functions of
 * named types (copies/named-types.ts): a `$defs` entry the caller says is a
 * named type is not written in place but called (`SharedHints`).
 */
import type { JsonObject } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import { defsEntryName } from "../../schema/refs.js";
import { code, joinCode, typeSymbol, type Code, type ImportSymbol } from "../../printer/file-builder.js";
import { literal } from "../../printer/literal.js";
import { runtimeSpecifier, runtimeValue, type RuntimeExport } from "../runtime-symbols.js";

/** The runtime's json helpers, from a module `up` folders below the output root (`../` for `chunks/`, `../../` for `chunks/types/`). */
export class JsonRuntime {
  readonly MAX_DEPTH: ImportSymbol;
  readonly copyValue: ImportSymbol;
  readonly copyObject: ImportSymbol;
  readonly emptyRecord: ImportSymbol;
  readonly located: ImportSymbol;
  readonly plainKeys: ImportSymbol;
  readonly jsonItem: ImportSymbol;
  readonly jsonValue: ImportSymbol;
  readonly JsonCopy: ImportSymbol;
  readonly #up: string;
  /** One symbol object per name: the file builder looks symbols up by identity. */
  readonly #byName = new Map<string, ImportSymbol>();

  constructor(up: string) {
    this.#up = up;
    this.MAX_DEPTH = this.value("MAX_DEPTH");
    this.copyValue = this.value("copyValue");
    this.copyObject = this.value("copyObject");
    this.emptyRecord = this.value("emptyRecord");
    this.located = this.value("located");
    this.plainKeys = this.value("plainKeys");
    this.jsonItem = this.value("jsonItem");
    this.jsonValue = this.value("jsonValue");
    this.JsonCopy = typeSymbol("JsonCopy", runtimeSpecifier("json", up));
  }

  /** The runtime's names are fixed and the files declare none of them but what they reserve first, so a clash is aliased by the file. */
  value(name: RuntimeExport<"json">): ImportSymbol {
    let symbol = this.#byName.get(name);
    if (symbol === undefined) {
      symbol = runtimeValue("json", name, this.#up);
      this.#byName.set(name, symbol);
    }
    return symbol;
  }
}

/** What is known of a value's shape: a copy function (declared in the file, or imported), a leaf type to test inline, or nothing. */
export type Hint =
  | { readonly kind: "fn"; readonly fn: string | ImportSymbol; readonly container: "object" | "array" }
  | { readonly kind: "leaf"; readonly test: string }
  | { readonly kind: "any" };

export type FunctionHint = Extract<Hint, { kind: "fn" }>;

export const ANY = { kind: "any" } as const satisfies Hint;

/** Inline tests for leaf types: a value that passes is copied as it is. `x - x === 0` is false for NaN and ±Infinity. */
const LEAF_TESTS: ReadonlyMap<string, string> = new Map([
  ["string", 'typeof x === "string"'],
  ["boolean", 'typeof x === "boolean"'],
  ["number", 'typeof x === "number" && x - x === 0'],
  ["integer", 'typeof x === "number" && x - x === 0'],
]);

function typesOf(schema: JsonObject): readonly string[] | undefined {
  const type = schema["type"];
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : undefined;
}

/** The JSON types of an `enum` or `const`'s values, when they are all strings, numbers or booleans; else undefined. */
function enumTypes(schema: JsonObject): readonly string[] | undefined {
  const values = Object.hasOwn(schema, "const") ? [schema["const"]] : schema["enum"];
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const types = new Set(values.map((v) => (v === null ? "null" : typeof v)));
  return [...types].every((t) => t === "null" || LEAF_TESTS.has(t)) ? [...types] : undefined;
}

/** The inline test for values of these types, all leaves (null included); undefined when any type is a container or unknown. */
function leafTest(types: readonly string[] | undefined): string | undefined {
  if (types === undefined || types.length === 0) return undefined;
  const tests = new Set<string>();
  for (const type of types) {
    const test = type === "null" ? "x === null" : LEAF_TESTS.get(type);
    if (test === undefined) return undefined;
    tests.add(test);
  }
  return tests.size === 1 ? [...tests][0] : [...tests].map((t) => `(${t})`).join(" || ");
}

/** The hint of a schema that neither refers to a `$defs` entry nor is a container: a leaf test, or nothing. */
export function leafHint(schema: JsonObject): Exclude<Hint, FunctionHint> {
  const test = leafTest(typesOf(schema) ?? enumTypes(schema));
  return test === undefined ? ANY : { kind: "leaf", test };
}

/** What a schema's own keywords say of a container: the properties of an object or the items of an array. */
export type Container = { readonly properties: JsonObject } | { readonly items: JsonObject };

export function containerOf(schema: JsonObject): Container | undefined {
  const types = typesOf(schema);
  const properties = schema["properties"];
  if (isJsonObject(properties) && (types === undefined || types.includes("object"))) return { properties };
  const items = schema["items"];
  if (isJsonObject(items) && (types === undefined || types.includes("array"))) return { items };
  return undefined;
}

/** A `$defs` entry's own container: undefined when the entry refers to another entry (then it is that one) or is no container. */
export function defContainer(schema: unknown): Container | undefined {
  return isJsonObject(schema) && defsEntryName(schema["$ref"]) === undefined ? containerOf(schema) : undefined;
}

/** The hint for a `$defs` entry that is a named type (copied by its shared function), or undefined to write the entry in place. */
export type SharedHints = (def: string) => Hint | undefined;

/** The copy functions of one schema (or one named type), named by `nameOf` from their 1-based position in the file's order. */
export class CopyEmitter {
  readonly functions: Code[] = [];
  /** The names of the functions, in order: the file reserves them before it imports anything. */
  readonly names: string[] = [];
  /** Whether a copy tests for an array, so the module needs its `isArray`. */
  usesIsArray = false;
  readonly #nameOf: (position: number) => string;
  readonly #defs: JsonObject;
  readonly #shared: SharedHints;
  readonly #runtime: JsonRuntime;
  readonly #byDef = new Map<string, Hint>();
  readonly #resolving = new Set<string>();
  /** The function that is exported (a named type's): the first one written. */
  readonly #exportFirst: boolean;
  /** False to walk the shapes without writing code: to learn which shared functions the copies call. */
  readonly #write: boolean;

  constructor(options: {
    nameOf: (position: number) => string;
    defs: JsonObject;
    shared: SharedHints;
    runtime: JsonRuntime;
    exportFirst?: boolean;
    write?: boolean;
  }) {
    this.#nameOf = options.nameOf;
    this.#defs = options.defs;
    this.#shared = options.shared;
    this.#runtime = options.runtime;
    this.#exportFirst = options.exportFirst === true;
    this.#write = options.write !== false;
  }

  hintOf(schema: unknown): Hint {
    if (!isJsonObject(schema)) return ANY;
    const def = defsEntryName(schema["$ref"]);
    if (def !== undefined) return this.#defHint(def);
    const container = containerOf(schema);
    if (container !== undefined) return this.containerFunction(container, undefined);
    return leafHint(schema);
  }

  #defHint(name: string): Hint {
    const known = this.#byDef.get(name);
    if (known !== undefined) return known;
    const shared = this.#shared(name);
    if (shared !== undefined) {
      this.#byDef.set(name, shared);
      return shared;
    }
    const schema = this.#defs[name];
    // A reference that goes round without passing through a container says nothing about the shape.
    if (!Object.hasOwn(this.#defs, name) || this.#resolving.has(name)) return ANY;
    this.#resolving.add(name);
    const container = defContainer(schema);
    const hint = container === undefined ? this.hintOf(schema) : this.containerFunction(container, name);
    this.#resolving.delete(name);
    this.#byDef.set(name, hint);
    return hint;
  }

  /**
   * A container's copy function. It is named, and registered for its `$defs`
   * entry, before its body is written, so a recursive type calls itself.
   */
  containerFunction(container: Container, def: string | undefined): FunctionHint {
    const index = this.functions.push(code``) - 1;
    const name = this.#nameOf(index + 1);
    this.names.push(name);
    const hint: FunctionHint = { kind: "fn", fn: name, container: "properties" in container ? "object" : "array" };
    if (def !== undefined) this.#byDef.set(def, hint);
    if (!this.#write) {
      for (const child of "items" in container ? [container.items] : Object.values(container.properties)) this.hintOf(child);
      return hint;
    }
    const head = this.#exportFirst && index === 0 ? "export function" : "function";
    const rt = this.#runtime;
    if ("items" in container) this.functions[index] = arrayFunction(head, name, this.#valueCopy(this.hintOf(container.items), rt.jsonItem), rt);
    else {
      const names = Object.keys(container.properties);
      const copies = names.map((key) => this.#valueCopy(this.hintOf(container.properties[key]), rt.jsonValue));
      this.functions[index] = objectFunction(head, name, names, copies, rt);
    }
    return hint;
  }

  #valueCopy(hint: Hint, fallback: ImportSymbol): Code {
    if (hint.kind === "fn") this.usesIsArray = true;
    return valueCopy(hint, fallback);
  }
}

/**
 * An object's copy: taken fast only when its keys are `names` in order (any
 * may be missing), then one read per property; else the generic walk. One
 * line per property: a tool's copies load on its first call, so their size
 * is start-up time.
 */
function objectFunction(head: string, name: string, names: readonly string[], copies: readonly Code[], rt: JsonRuntime): Code {
  const start = code`${head} ${name}(v: object, d: number): unknown {
  const k = ${rt.plainKeys}(v, d);
  if (k === undefined) return ${rt.copyValue}(v, d);`;
  if (names.length === 0) return code`${start}\n  return k.length === 0 ? ${rt.emptyRecord}() : ${rt.copyObject}(v, d + 1);\n}`;
  const steps = names.map((key, i) => `  const h${i} = i < n && k[i] === ${literal(key)};\n  if (h${i}) i++;`);
  const reads = names.map((key, i) => {
    const quoted = literal(key);
    return code`    if (h${i}) { at = ${quoted}; const x = r[${quoted}]; if (x !== undefined) o[${quoted}] = ${copies[i] ?? ""}; }`;
  });
  return code`${start}
  const n = k.length;
  let i = 0;
${steps.join("\n")}
  if (i !== n) return ${rt.copyObject}(v, d + 1);
  const r = v as Readonly<Record<string, unknown>>;
  const o = ${rt.emptyRecord}();
  const e = d + 1;
  let at = "";
  try {
${joinCode(reads)}
  } catch (error) {
    throw ${rt.located}(error, at, v);
  }
  return o;
}`;
}

/** An array's copy, sized up front (pushing onto [] reserves 17 slots for one item); a huge length is not trusted with an allocation. */
function arrayFunction(head: string, name: string, itemCopy: Code, rt: JsonRuntime): Code {
  return code`${head} ${name}(v: readonly unknown[], d: number): unknown {
  if (d >= ${rt.MAX_DEPTH}) return ${rt.copyValue}(v, d);
  const e = d + 1;
  const n = v.length;
  const o: unknown[] = n <= 4096 ? new Array<unknown>(n) : [];
  let i = 0;
  try {
    for (; i < n; i++) {
      const x = v[i];
      o[i] = ${itemCopy};
    }
  } catch (error) {
    throw ${rt.located}(error, i, v);
  }
  return o;
}`;
}

/** The expression copying `x` (at depth `e`) that the hint makes fastest; `other` copies anything else. */
function valueCopy(hint: Hint, other: ImportSymbol): Code {
  switch (hint.kind) {
    case "leaf":
      return code`${hint.test} ? x : ${other}(x, e)`;
    case "fn":
      return hint.container === "object"
        ? code`typeof x === "object" && x !== null && !isArray(x) ? ${hint.fn}(x, e) : ${other}(x, e)`
        : code`isArray(x) ? ${hint.fn}(x, e) : ${other}(x, e)`;
    case "any":
      return code`${other}(x, e)`;
  }
}
