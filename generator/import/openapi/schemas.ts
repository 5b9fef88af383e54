/**
 * OpenAPI schemas into contract schemas. Each schema goes through two steps:
 *
 * 1. What is OpenAPI's own (this file): local `$ref`s become `#/$defs/Name`
 *    entries of the contract root, `readOnly` properties leave the input and
 *    `writeOnly` ones the output (OpenAPI 3.0 §4.7.25.1: they are sent in one
 *    direction only), `nullable` without `type` becomes a union with null,
 *    `example` becomes `examples`, OpenAPI's data-type formats (int32,
 *    int64, float, double, byte, binary, password) become what they mean in
 *    JSON Schema, and `discriminator`, `xml` and `externalDocs` go.
 * 2. What any JSON Schema needs (schema.ts, shared with the MCP import):
 *    `nullable` with a `type`, open objects written out, draft differences,
 *    and every keyword outside toolc's subset reported at its pointer.
 *
 * A component is converted once per direction and its problems are reported
 * once, at its pointer in the API description; every contract that uses it
 * gets the converted copy in its `$defs`.
 */
import { SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS } from "../../schema/walk.js";
import { pointerJoin, Reporter } from "../problems.js";
import { convertSchema, type SchemaContext } from "../schema.js";
import type { ApiSpec, Json } from "./model.js";
import type { Conversions } from "./report.js";
import { defsRef } from "../../schema/pointer.js";
import { resolveLocalRef } from "../../schema/refs.js";
import { INTEGER_WIDTHS } from "../../schema/integer-widths.js";
import { isJsonObject } from "../../schema/json.js";
import type { JsonObject } from "../../ir.js";

export type Direction = "input" | "output";

const SUBSCHEMA: ReadonlySet<string> = new Set([...SCHEMA_KEYWORDS, "not"]);
const SUBSCHEMA_LIST: ReadonlySet<string> = new Set(SCHEMA_LIST_KEYWORDS);
const SUBSCHEMA_MAP: ReadonlySet<string> = new Set([...SCHEMA_MAP_KEYWORDS, "definitions", "patternProperties"]);

const INT32 = INTEGER_WIDTHS.int32;
/** OpenAPI's data-type formats (OpenAPI 3.0 §4.4): what each one means for a JSON value. */
const OPENAPI_FORMATS: Record<string, string> = {
  int32: "int32: bounds -2^31 to 2^31-1",
  int64: "int64: any JSON integer (toolc checks no width)",
  float: "float: any JSON number",
  double: "double: any JSON number",
  byte: "byte: base64 text, not checked",
  binary: "binary: any string",
  password: "password: marked x-sensitive",
};
/** Keywords that apply to one JSON type only, by that type (JSON Schema 2020-12 validation §6). */
const TYPE_KEYWORDS: Record<string, readonly string[]> = {
  object: ["properties", "required", "additionalProperties", "minProperties", "maxProperties", "propertyNames"],
  array: ["items", "prefixItems", "minItems", "maxItems", "uniqueItems"],
  string: ["minLength", "maxLength", "pattern"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
};
/** OpenAPI keywords with no validation meaning. */
const DOCUMENTATION_ONLY = ["xml", "externalDocs"];

/** A converted schema and the `$defs` entries it needs, by pointer. */
interface Converted {
  readonly schema: Json;
  readonly refs: ReadonlySet<string>;
  readonly failed: boolean;
}

export interface ContractSchema {
  /** The root schema, without `$defs`. */
  readonly schema: JsonObject | Json;
  readonly defs: JsonObject;
  /** Pointers of the components a problem made unusable; the contract cannot be written. */
  readonly failed: boolean;
}

export class SchemaConverter {
  readonly #components = new Map<string, Converted>();
  readonly #names = new Map<string, string>();
  readonly #taken = new Set<string>();
  /** Problems in components, each reported once, whichever contract met them first. */
  readonly componentReport: Reporter;

  constructor(
    readonly spec: ApiSpec,
    readonly conversions: Conversions,
    file: string,
  ) {
    this.componentReport = new Reporter(file);
  }

  /** The `$defs` name for a pointer: the component's own name when it is one, else the pointer's tokens joined. */
  defName(pointer: string): string {
    const known = this.#names.get(pointer);
    if (known !== undefined) return known;
    const component = /^\/(?:components\/schemas|definitions)\/([^/]+)$/.exec(pointer);
    const base =
      (component ? component[1]! : pointer.slice(1))
        .replace(/~1/g, "_")
        .replace(/~0/g, "_")
        .replace(/[^A-Za-z0-9_.-]+/g, "_")
        .replace(/^_+|_+$/g, "") || "Schema";
    let name = base;
    for (let i = 2; this.#taken.has(name.toLowerCase()); i++) name = `${base}_${i}`;
    this.#taken.add(name.toLowerCase());
    this.#names.set(pointer, name);
    return name;
  }

  /** One root schema (a parameter's, a body's, a response's) with the closure of the components it references. */
  convertRoot(schema: Json, at: string, direction: Direction, report: Reporter): ContractSchema {
    const own = this.#convert(schema, at, direction, report);
    const defs: JsonObject = {};
    let failed = own.failed;
    const pending = [...own.refs];
    const seen = new Set(pending);
    while (pending.length > 0) {
      const pointer = pending.pop()!;
      const component = this.#component(pointer, direction);
      failed ||= component.failed;
      defs[this.defName(pointer)] = component.schema;
      for (const next of component.refs)
        if (!seen.has(next)) {
          seen.add(next);
          pending.push(next);
        }
    }
    return { schema: own.schema, defs: sortKeys(defs), failed };
  }

  /** The `$defs` name a local `$ref` of the description was given, when it was converted. */
  defNameOfRef(ref: string): string | undefined {
    if (!ref.startsWith("#/")) return undefined;
    try {
      return this.#names.get(decodeURIComponent(ref.slice(1)));
    } catch {
      return undefined;
    }
  }

  /** The schema a local `$ref` points at, for callers that must look inside (is the body an object?). */
  resolve(schema: Json): Json {
    let node = schema;
    for (let hops = 0; isJsonObject(node) && typeof node.$ref === "string" && hops < 32; hops++) {
      const target = resolveLocalRef(this.spec.document, node.$ref);
      if (target === undefined) return node;
      node = target;
    }
    return node;
  }

  #component(pointer: string, direction: Direction): Converted {
    const key = `${direction}\u0000${pointer}`;
    const cached = this.#components.get(key);
    if (cached) return cached;
    const target = resolveLocalRef(this.spec.document, `#${pointer}`);
    // Converting a component only collects what it references; convertRoot follows them, so a cycle ends at the cache.
    const converted = this.#convert(target ?? {}, pointer, direction, this.componentReport);
    this.#components.set(key, converted);
    return converted;
  }

  #convert(schema: Json, at: string, direction: Direction, report: Reporter): Converted {
    const refs = new Set<string>();
    const local = new Reporter(report.file);
    const prepared = this.#prepare(schema, at, direction, refs, local);
    const ctx: SchemaContext = { report: local, defs: new Set([...refs].map((p) => this.defName(p))), legacy: this.spec.version !== "3.1" };
    const converted = convertSchema(prepared, at, ctx);
    report.problems.push(...local.problems);
    return { schema: converted, refs, failed: local.failed };
  }

  /** Step 1 above, on one node and its subschemas. */
  #prepare(schema: Json, at: string, direction: Direction, refs: Set<string>, report: Reporter): Json {
    if (!isJsonObject(schema)) return schema;
    const node: JsonObject = this.#itemsList({ ...schema }, at, report);
    if (typeof node.$ref === "string") node.$ref = this.#rewriteRef(node.$ref, at, refs, report);
    this.#example(node, at);
    this.#formats(node, at);
    this.#documentationOnly(node, at, report);
    this.#directional(node, at, direction);
    this.#protoProperty(node, at, report);
    this.#impliedType(node, at);
    for (const [key, value] of Object.entries(node)) {
      const here = pointerJoin(at, key);
      if (SUBSCHEMA.has(key)) node[key] = this.#prepare(value, here, direction, refs, report);
      else if (SUBSCHEMA_LIST.has(key) && Array.isArray(value))
        node[key] = value.map((v, i) => this.#prepare(v, pointerJoin(here, i), direction, refs, report));
      else if (SUBSCHEMA_MAP.has(key) && isJsonObject(value))
        node[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.#prepare(v, pointerJoin(here, k), direction, refs, report)]));
    }
    return this.#nullable(node, at);
  }

  #rewriteRef(ref: string, at: string, refs: Set<string>, report: Reporter): string {
    if (!ref.startsWith("#/")) return ref; // schema.ts reports every other form
    if (resolveLocalRef(this.spec.document, ref) === undefined) {
      report.error(pointerJoin(at, "$ref"), `$ref ${JSON.stringify(ref)} points at nothing in the document`);
      return ref;
    }
    const pointer = decodeURIComponent(ref.slice(1));
    refs.add(pointer);
    return defsRef(this.defName(pointer));
  }

  /** OpenAPI 3.0's `example` is JSON Schema's `examples` with one entry. */
  #example(node: JsonObject, at: string): void {
    if (!("example" in node)) return;
    if (node.examples === undefined) node.examples = [node.example!];
    delete node.example;
    this.conversions.add("example", pointerJoin(at, "example"), "`example` became `examples: [value]`");
  }

  #formats(node: JsonObject, at: string): void {
    const format = node.format;
    if (typeof format !== "string" || !Object.hasOwn(OPENAPI_FORMATS, format)) return;
    delete node.format;
    if (format === "int32") {
      if (node.minimum === undefined && node.exclusiveMinimum === undefined) node.minimum = INT32.minimum;
      if (node.maximum === undefined && node.exclusiveMaximum === undefined) node.maximum = INT32.maximum;
    }
    if (format === "password") node["x-sensitive"] = true;
    this.conversions.add(`format ${format}`, pointerJoin(at, "format"), `format ${OPENAPI_FORMATS[format]}`);
  }

  #documentationOnly(node: JsonObject, at: string, report: Reporter): void {
    for (const key of DOCUMENTATION_ONLY) {
      if (!(key in node)) continue;
      delete node[key];
      this.conversions.add(key, pointerJoin(at, key), `\`${key}\` dropped: documentation only`);
    }
    if ("discriminator" in node) {
      delete node.discriminator;
      report.warn(
        pointerJoin(at, "discriminator"),
        "`discriminator` dropped: the `oneOf`/`anyOf` next to it still decides which branch a value matches, but its mapping is not checked",
      );
    }
  }

  /** readOnly properties are never sent, writeOnly ones never returned: each leaves the schema of the other direction. */
  #directional(node: JsonObject, at: string, direction: Direction): void {
    if (!isJsonObject(node.properties)) return;
    const flag = direction === "input" ? "readOnly" : "writeOnly";
    const gone = Object.entries(node.properties)
      .filter(([, v]) => isJsonObject(v) && v[flag] === true)
      .map(([k]) => k);
    if (gone.length === 0) return;
    node.properties = Object.fromEntries(Object.entries(node.properties).filter(([k]) => !gone.includes(k)));
    if (Array.isArray(node.required)) node.required = node.required.filter((r) => typeof r !== "string" || !gone.includes(r));
    if (Array.isArray(node.required) && node.required.length === 0) delete node.required;
    for (const name of gone) this.conversions.add(flag, pointerJoin(at, "properties", name), `${flag} property left out of the ${direction}`);
  }

  /**
   * A property named `__proto__` is left out with a warning: toolc generate
   * refuses it as a key (JavaScript would take it for the prototype), so no
   * contract can offer it; the object stays open, so the API's answers that
   * carry it still validate.
   */
  #protoProperty(node: JsonObject, at: string, report: Reporter): void {
    if (!isJsonObject(node.properties) || !Object.hasOwn(node.properties, "__proto__")) return;
    node.properties = Object.fromEntries(Object.entries(node.properties).filter(([k]) => k !== "__proto__"));
    if (Array.isArray(node.required)) node.required = node.required.filter((r) => r !== "__proto__");
    if (Array.isArray(node.required) && node.required.length === 0) delete node.required;
    report.warn(
      pointerJoin(at, "properties", "__proto__"),
      "property `__proto__` left out: toolc generate refuses it as a key (JavaScript would take it for the prototype), so no tool argument can set it",
    );
  }

  /**
   * OpenAPI descriptions often leave `type` out where the keywords say it
   * (`properties` and `required` on what is meant as an object). In JSON
   * Schema such keywords let any other type through, and Ajv's strict mode
   * refuses them (TC031). Where every type-specific keyword belongs to one
   * type and nothing else decides the type, that type is written;
   * `additionalProperties: true` with no type, which never rejects, goes.
   */
  #impliedType(node: JsonObject, at: string): void {
    if (node.type !== undefined) return this.#inapplicable(node, at);
    if ("$ref" in node || "enum" in node || "const" in node) return;
    if (node.additionalProperties === true && !TYPE_KEYWORDS.object!.some((k) => k !== "additionalProperties" && k in node)) {
      delete node.additionalProperties;
      this.conversions.add(
        "additionalProperties without type",
        pointerJoin(at, "additionalProperties"),
        "`additionalProperties: true` without `type` never rejects; dropped",
      );
    }
    const families = Object.entries(TYPE_KEYWORDS)
      .filter(([, keys]) => keys.some((k) => k in node))
      .map(([type]) => type);
    if (families.length !== 1) return;
    const composed = ["anyOf", "oneOf", "allOf"].some((k) => k in node);
    if (composed && families[0] !== "object") return;
    node.type = families[0]!;
    this.conversions.add(
      "implied type",
      pointerJoin(at, "type"),
      `\`type: ${families[0]}\` written: the keywords here apply to ${families[0]}s only, and OpenAPI descriptions leave the type implied`,
    );
  }

  /** A keyword of another type than the declared one never applies (`pattern` on an integer); Ajv's strict mode refuses it, so it goes. */
  #inapplicable(node: JsonObject, at: string): void {
    const declared = (Array.isArray(node.type) ? node.type : [node.type]).map((t) => (t === "integer" ? "number" : t));
    for (const [type, keys] of Object.entries(TYPE_KEYWORDS)) {
      if (declared.includes(type)) continue;
      for (const key of keys.filter((k) => k in node)) {
        delete node[key];
        this.conversions.add("inapplicable keyword", pointerJoin(at, key), `\`${key}\` never applies to type ${JSON.stringify(node.type)}; dropped`);
      }
    }
  }

  /**
   * \`items\` as a list is no OpenAPI schema (Swagger 2.0 and OpenAPI 3.x
   * take one schema there); descriptions that write it mean "one of these".
   * With \`type: array\` each item is one of them; without a type, the value is.
   */
  #itemsList(node: JsonObject, at: string, report: Reporter): JsonObject {
    if (!Array.isArray(node.items)) return node;
    const { items, ...rest } = node;
    const asArray = rest.type === "array" || (Array.isArray(rest.type) && rest.type.includes("array"));
    report.warn(
      pointerJoin(at, "items"),
      `\`items\` is a list, which OpenAPI does not allow; read as ${asArray ? "`items: { anyOf: [...] }`" : "`anyOf: [...]` of the value itself"}`,
    );
    if (asArray) return { ...rest, items: { anyOf: items } };
    return "anyOf" in rest ? { ...rest, allOf: [{ anyOf: items }] } : { ...rest, anyOf: items };
  }

  /**
   * `nullable: true` with no `type` (most often next to `allOf: [$ref]`)
   * has no effect by the letter of OpenAPI 3.0.3, but every producer means
   * "or null", and servers send null there: it becomes `anyOf: [it, null]`.
   */
  #nullable(node: JsonObject, at: string): JsonObject {
    if (node.nullable !== true) return node;
    if (node.type !== undefined) {
      this.conversions.add("nullable", pointerJoin(at, "nullable"), "`nullable: true` became `null` in `type`");
      return node; // schema.ts adds the null, as for an MCP tool
    }
    const { nullable: _, title, description, default: fallback, examples, deprecated, ...rest } = node;
    const annotations = Object.fromEntries(Object.entries({ title, description, default: fallback, examples, deprecated }).filter(([, v]) => v !== undefined));
    this.conversions.add("nullable without type", pointerJoin(at, "nullable"), "`nullable: true` without `type` became `anyOf: [schema, {type: null}]`");
    return { ...annotations, anyOf: [rest, { type: "null" }] } as JsonObject;
  }
}

function sortKeys(map: JsonObject): JsonObject {
  return Object.fromEntries(
    Object.keys(map)
      .sort()
      .map((k) => [k, map[k]!]),
  );
}
