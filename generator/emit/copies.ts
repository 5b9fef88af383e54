/**
 * Chunks target: `chunks/<tool>.ts`, the module the runtime loads on a tool's
 * first call (one chunk per tool, so a server that never calls a tool never
 * loads its code). It re-exports the tool's validators and adds `copyInput` and
 * `copyOutput`, copies of plain JSON data written for the shapes of the
 * tool's schemas: one function per object or array shape, reading each
 * expected property by name (so each read site sees one shape), each value
 * once. An object whose keys are not the shape's properties in the shape's
 * order (some may be missing) is copied by the generic walk of
 * runtime/json.ts instead, so the copy never depends on the schema being
 * right; the schema only makes the common case fast. See runtime/json.ts for
 * what a copy guarantees.
 */
import type { EmittedFile, JsonObject, ToolIR } from "../ir.js";
import { isJsonObject } from "../schema/json.js";
import { defsEntryName } from "../schema/refs.js";
import { code, FileBuilder, joinCode, typeSymbol, type Code, type ImportSymbol } from "../printer/file-builder.js";
import { runtimeSpecifier, runtimeValue, type RuntimeExport } from "./runtime-symbols.js";
import { literal } from "../printer/literal.js";
import { toolFileName } from "./ts-names.js";

/** The folder of the per-tool chunks; `copies/` before, which the write step removes from an older project as stale. */
export const CHUNKS_FOLDER = "chunks";
const RUNTIME_JSON = runtimeSpecifier("json", "../");
/** The runtime's names are fixed and the file declares none of them, so none is aliased. */
const json = (name: RuntimeExport<"json">): ImportSymbol => runtimeValue("json", name, "../");
const MAX_DEPTH = json("MAX_DEPTH");
const copyValue = json("copyValue");
const copyObject = json("copyObject");
const emptyRecord = json("emptyRecord");
const located = json("located");
const plainKeys = json("plainKeys");
const JSON_COPY = typeSymbol("JsonCopy", RUNTIME_JSON);
const FALLBACKS = { jsonItem: json("jsonItem"), jsonValue: json("jsonValue") } as const;

/** What is known of a value's shape: a copy function, a leaf type to test inline, or nothing. */
type Hint =
  | { readonly kind: "fn"; readonly name: string; readonly container: "object" | "array" }
  | { readonly kind: "leaf"; readonly test: string }
  | { readonly kind: "any" };

const ANY: Hint = { kind: "any" };

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

type FunctionHint = Extract<Hint, { kind: "fn" }>;

/** What a schema's own keywords say of a container: the properties of an object or the items of an array. */
type Container = { readonly properties: JsonObject } | { readonly items: JsonObject };

function containerOf(schema: JsonObject): Container | undefined {
  const types = typesOf(schema);
  const properties = schema["properties"];
  if (isJsonObject(properties) && (types === undefined || types.includes("object"))) return { properties };
  const items = schema["items"];
  if (isJsonObject(items) && (types === undefined || types.includes("array"))) return { items };
  return undefined;
}

/** The copy functions of one schema (the input's or the output's), named with `prefix` and a counter. */
class CopyEmitter {
  readonly functions: Code[] = [];
  /** Whether a copy tests for an array, so the module needs its `isArray`. */
  usesIsArray = false;
  readonly #prefix: string;
  readonly #defs: JsonObject;
  readonly #byDef = new Map<string, Hint>();
  readonly #resolving = new Set<string>();

  constructor(prefix: string, schema: JsonObject) {
    this.#prefix = prefix;
    const defs = schema["$defs"];
    this.#defs = isJsonObject(defs) ? defs : {};
  }

  hintOf(schema: unknown): Hint {
    if (!isJsonObject(schema)) return ANY;
    const def = defsEntryName(schema["$ref"]);
    if (def !== undefined) return this.#defHint(def);
    const container = containerOf(schema);
    if (container !== undefined) return this.#containerFunction(container, undefined);
    const test = leafTest(typesOf(schema) ?? enumTypes(schema));
    return test === undefined ? ANY : { kind: "leaf", test };
  }

  #defHint(name: string): Hint {
    const known = this.#byDef.get(name);
    if (known !== undefined) return known;
    const schema = this.#defs[name];
    // A reference that goes round without passing through a container says nothing about the shape.
    if (!Object.hasOwn(this.#defs, name) || this.#resolving.has(name)) return ANY;
    this.#resolving.add(name);
    const container = isJsonObject(schema) && defsEntryName(schema["$ref"]) === undefined ? containerOf(schema) : undefined;
    const hint = container === undefined ? this.hintOf(schema) : this.#containerFunction(container, name);
    this.#resolving.delete(name);
    this.#byDef.set(name, hint);
    return hint;
  }

  /**
   * A container's copy function. It is named, and registered for its `$defs`
   * entry, before its body is written, so a recursive type calls itself.
   */
  #containerFunction(container: Container, def: string | undefined): FunctionHint {
    const hint: FunctionHint = { kind: "fn", name: `${this.#prefix}${this.functions.length + 1}`, container: "properties" in container ? "object" : "array" };
    const index = this.functions.push(code``) - 1;
    if (def !== undefined) this.#byDef.set(def, hint);
    if ("items" in container) this.functions[index] = arrayFunction(hint.name, this.#valueCopy(this.hintOf(container.items), "jsonItem"));
    else {
      const names = Object.keys(container.properties);
      this.functions[index] = objectFunction(
        hint.name,
        names,
        names.map((name) => this.#valueCopy(this.hintOf(container.properties[name]), "jsonValue")),
      );
    }
    return hint;
  }

  #valueCopy(hint: Hint, fallback: "jsonItem" | "jsonValue"): Code {
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
function objectFunction(name: string, names: readonly string[], copies: readonly Code[]): Code {
  const head = code`function ${name}(v: object, d: number): unknown {
  const k = ${plainKeys}(v, d);
  if (k === undefined) return ${copyValue}(v, d);`;
  if (names.length === 0) return code`${head}\n  return k.length === 0 ? ${emptyRecord}() : ${copyObject}(v, d + 1);\n}`;
  const steps = names.map((key, i) => `  const h${i} = i < n && k[i] === ${literal(key)};\n  if (h${i}) i++;`);
  const reads = names.map((key, i) => {
    const quoted = literal(key);
    return code`    if (h${i}) { at = ${quoted}; const x = r[${quoted}]; if (x !== undefined) o[${quoted}] = ${copies[i] ?? ""}; }`;
  });
  return code`${head}
  const n = k.length;
  let i = 0;
${steps.join("\n")}
  if (i !== n) return ${copyObject}(v, d + 1);
  const r = v as Readonly<Record<string, unknown>>;
  const o = ${emptyRecord}();
  const e = d + 1;
  let at = "";
  try {
${joinCode(reads)}
  } catch (error) {
    throw ${located}(error, at, v);
  }
  return o;
}`;
}

/** An array's copy, sized up front (pushing onto [] reserves 17 slots for one item); a huge length is not trusted with an allocation. */
function arrayFunction(name: string, itemCopy: Code): Code {
  return code`function ${name}(v: readonly unknown[], d: number): unknown {
  if (d >= ${MAX_DEPTH}) return ${copyValue}(v, d);
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
    throw ${located}(error, i, v);
  }
  return o;
}`;
}

/** The expression copying `x` (at depth `e`) that the hint makes fastest; `fallback` copies anything else. */
function valueCopy(hint: Hint, fallback: "jsonItem" | "jsonValue"): Code {
  const other = FALLBACKS[fallback];
  switch (hint.kind) {
    case "leaf":
      return code`${hint.test} ? x : ${other}(x, e)`;
    case "fn":
      return hint.container === "object"
        ? code`typeof x === "object" && x !== null && !isArray(x) ? ${hint.name}(x, e) : ${other}(x, e)`
        : code`isArray(x) ? ${hint.name}(x, e) : ${other}(x, e)`;
    case "any":
      return code`${other}(x, e)`;
  }
}

/** The runtime call that copies a root with this hint: schema-aware for an object or array shape, else the generic copy. */
function rootCall(hint: Hint): Code {
  if (hint.kind !== "fn") return code`${json("copyJson")}(value)`;
  return code`${json(hint.container === "object" ? "copyJsonWith" : "copyJsonArrayWith")}(value, ${hint.name})`;
}

/** The copy function for one root schema (an output's may be an array, SEP-2106): `export`ed from a module of its own. */
function rootFunction(exportName: string, prefix: string, body: Code, exported: boolean): Code {
  return code`/** A copy of the ${prefix === "input" ? "caller's input" : "handler's output"} as plain JSON data, or why it is not JSON (see runtime/json.ts). */
${exported ? "export " : ""}function ${exportName}(value: unknown): ${JSON_COPY} {
  return ${body};
}`;
}

/** The functions copying one root schema, and the call its root copy makes. */
function rootCopy(prefix: string, schema: JsonObject): { body: Code; functions: Code[]; usesIsArray: boolean } {
  const emitter = new CopyEmitter(prefix, schema);
  const body = rootCall(emitter.hintOf(schema));
  return { body, functions: emitter.functions, usesIsArray: emitter.usesIsArray };
}

/** A tool's copies: `copyInput` and `copyOutput` (`export`ed from the tool's own module; local to its function in a group module), the functions they call, and whether those need `isArray`. */
export interface CopiesCode {
  readonly roots: { readonly exported: readonly Code[]; readonly local: readonly Code[] };
  readonly functions: readonly Code[];
  readonly usesIsArray: boolean;
}

export function copiesCode(tool: ToolIR): CopiesCode {
  const input = rootCopy("input", tool.inputSchema);
  const output = rootCopy("output", tool.outputSchema);
  const roots = (exported: boolean) => [rootFunction("copyInput", "input", input.body, exported), rootFunction("copyOutput", "output", output.body, exported)];
  return {
    roots: { exported: roots(true), local: roots(false) },
    functions: [...input.functions, ...output.functions],
    usesIsArray: input.usesIsArray || output.usesIsArray,
  };
}

/** `const isArray = Array.isArray;`, which copies that test for an array call. */
export const IS_ARRAY = "const isArray = Array.isArray;";

/** `chunks/<tool>.ts`: the tool's copies, with its validators (`validators/<tool>.ts`) re-exported. */
export function printCopiesModule(fileName: string, header: string, copies: CopiesCode): EmittedFile {
  const file = new FileBuilder(`${CHUNKS_FOLDER}/${fileName}.ts`, header);
  // Only what the code uses is imported, as each piece of code is added: the generated code compiles with noUnusedLocals.
  file.add({ kind: "exportFrom", names: ["validateInput", "validateOutput"], from: `../validators/${fileName}.js` });
  if (copies.usesIsArray) file.add(IS_ARRAY);
  file.add(...copies.roots.exported, ...copies.functions);
  return { path: file.path, text: file.toText() };
}

export function emitCopies(tool: ToolIR, header: string): EmittedFile {
  return printCopiesModule(toolFileName(tool), header, copiesCode(tool));
}
