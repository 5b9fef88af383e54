/**
 * Negatives derived from a schema: starting from a valid document, one
 * mutation at a time, per property at the root and in nested objects (through
 * `$ref`, `allOf`, every `anyOf`/`oneOf` branch and array items). Each
 * mutated document is kept only when the real Ajv rejects it at the issue
 * path the test will assert, for the reason the mutation names.
 *
 * Inside an anyOf/oneOf branch the runtime reports the union's own path (a
 * branch error describes a shape the caller may not have meant), so a
 * mutation there is expected at the union's path. A tagged union is decided
 * by its tag (generator/discriminators.ts): inside the branch the tag names,
 * issues are reported at their own paths, and a bad tag at the tag's.
 */
import { taggedUnion } from "../../discriminators.js";
import type { JsonObject, JsonSchema, JsonValue } from "../../ir.js";
import { formatPath } from "../../runtime/issues.js";
import { isJsonObject } from "../../schema/json.js";
import { UNION_KEYWORDS } from "../../schema/walk.js";
import { getAt, setAt, type SchemaChecker, type Segment } from "./checker.js";
import { minimalValue } from "./minimal.js";
import {
  acceptedTypes,
  dateTimeMutations,
  enumMutations,
  itemsMutations,
  lengthMutations,
  numberMutations,
  typeMutations,
  undeclaredName,
  type Mutation,
  type NegativeKind,
} from "./mutations.js";

export type { NegativeKind } from "./mutations.js";

/** Deeper than this, a derived case adds length to the test, not confidence. */
const MAX_DEPTH = 8;

export interface Negative {
  readonly kind: NegativeKind;
  /** `filter.customerId: wrong type (number), reported at filter`. */
  readonly name: string;
  /** The whole mutated document. */
  readonly input: JsonValue;
  /** The issue path that must be among the reported issues ("" is the root). */
  readonly path: string;
}

export interface DeriveOptions {
  /** Only these kinds (default: all). */
  readonly kinds?: ReadonlySet<NegativeKind>;
  /** Descend into nested objects and arrays (default true); false stays at the root's properties. */
  readonly nested?: boolean;
}

/** One place in a valid document, and the schema that governs it. */
interface Site {
  readonly doc: JsonValue;
  readonly at: readonly Segment[];
  /** Set inside a union branch: where, and under which keyword, issues surface instead. */
  readonly union?: { readonly at: readonly Segment[]; readonly keyword: string; readonly branch: string };
  /** Set inside the branch of a tagged union (and no untagged one): the branch, for the case's name; a bad tag fails as `discriminator`, at its own path. */
  readonly tagged?: string;
  /** `$ref`s followed to get here, so a recursive type is not unrolled forever. */
  readonly refs: ReadonlySet<string>;
}

function display(at: readonly Segment[]): string {
  return at.length === 0 ? "(root)" : formatPath(at);
}

class Deriver {
  readonly #out: Negative[] = [];
  readonly #seen = new Set<string>();

  constructor(
    readonly checker: SchemaChecker,
    readonly options: DeriveOptions,
  ) {}

  get negatives(): Negative[] {
    return this.#out;
  }

  /** Keeps `mutation` of the value at `at` if the validator rejects it where and why it should. */
  tryMutation(site: Site, at: readonly Segment[], mutation: Mutation | { kind: "missing"; label: string; keywords: readonly string[] }): void {
    if (this.options.kinds && !this.options.kinds.has(mutation.kind)) return;
    const input = setAt(site.doc, at, "value" in mutation ? mutation.value : undefined);
    const key = JSON.stringify(input);
    if (this.#seen.has(key) || this.checker.valid(input)) return;
    const expected = formatPath(site.union?.at ?? at);
    const keywords = site.union ? [site.union.keyword] : site.tagged ? [...mutation.keywords, "discriminator"] : mutation.keywords;
    if (!this.checker.failures(input).some((f) => f.path === expected && keywords.includes(f.keyword))) return;
    this.#seen.add(key);
    const where = site.union ? ` (${site.union.branch}), reported at ${display(site.union.at)}` : site.tagged ? ` (${site.tagged})` : "";
    this.#out.push({ kind: mutation.kind, name: this.#uniqueName(`${display(at)}: ${mutation.label}${where}`), input, path: expected });
  }

  /** Test names must be unique; two cases with the same description get a counter. */
  #uniqueName(name: string): string {
    let candidate = name;
    for (let i = 2; this.#out.some((n) => n.name === candidate); i++) candidate = `${name} #${i}`;
    return candidate;
  }

  /** Everything wrong that can be done at one site: its type first, then its schema's own constraints. */
  visit(site: Site, schema: JsonSchema): void {
    if (site.at.length > 0) {
      const accepted = acceptedTypes(this.checker, schema);
      if (accepted) for (const m of typeMutations(accepted)) this.tryMutation(site, site.at, m);
    }
    this.visitConstraints(site, schema);
  }

  visitConstraints(site: Site, schema: JsonSchema): void {
    if (typeof schema === "boolean") return;
    if (typeof schema.$ref === "string" && !site.refs.has(schema.$ref)) {
      const target = this.checker.resolveRef(schema.$ref);
      if (target !== undefined) this.visitConstraints({ ...site, refs: new Set([...site.refs, schema.$ref]) }, target);
    }
    const current = getAt(site.doc, site.at);
    if (site.at.length > 0) this.visitValueConstraints(site, schema, current);
    if (isJsonObject(current) && (this.options.nested !== false || site.at.length === 0)) this.visitObject(site, schema, current);
    if (Array.isArray(current) && this.options.nested !== false) this.visitItems(site, schema, current);
    if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) this.visitConstraints(site, branch as JsonSchema);
    const tagged = taggedUnion(schema, (ref) => this.checker.resolveRef(ref))?.keyword;
    for (const keyword of UNION_KEYWORDS) {
      const branches = schema[keyword];
      if (Array.isArray(branches))
        branches.forEach((branch, i) => this.visitBranch(site, `${keyword} branch ${i + 1}`, keyword, branch as JsonSchema, current, keyword === tagged));
    }
  }

  visitValueConstraints(site: Site, schema: JsonObject, current: JsonValue | undefined): void {
    const accepted = acceptedTypes(this.checker, schema);
    const integerOnly = accepted !== undefined && accepted.has("integer") && !accepted.has("number");
    const filler = isJsonObject(schema.items) || typeof schema.items === "boolean" ? minimalValue(this.checker, schema.items as JsonSchema) : undefined;
    const mutations = [
      ...enumMutations(schema),
      ...numberMutations(schema, integerOnly),
      ...lengthMutations(schema, current),
      ...itemsMutations(schema, current, filler),
      ...dateTimeMutations(schema),
    ];
    for (const m of mutations) this.tryMutation(site, site.at, m);
  }

  /** Each required property missing, an undeclared one added, then each declared property in turn. */
  visitObject(site: Site, schema: JsonObject, current: JsonObject): void {
    const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
    for (const name of required) {
      if (Object.hasOwn(current, name))
        this.tryMutation(site, [...site.at, name], { kind: "missing", label: "missing required property", keywords: ["required"] });
    }
    if (schema.additionalProperties === false) {
      const extra = undeclaredName(schema, current);
      this.tryMutation(site, [...site.at, extra], { kind: "extra", label: "undeclared property", value: true, keywords: ["additionalProperties"] });
    }
    if (site.at.length >= MAX_DEPTH) return;
    const properties = isJsonObject(schema.properties) ? schema.properties : {};
    for (const [name, propertySchema] of Object.entries(properties)) this.visitChild(site, name, propertySchema as JsonSchema);
    if (isJsonObject(schema.additionalProperties) && this.options.nested !== false) {
      // Values under additionalProperties are properties too: use one the document has, or add one.
      const key = Object.keys(current).find((k) => !Object.hasOwn(properties, k)) ?? undeclaredName(schema, current, "additionalKey");
      this.visitChild(site, key, schema.additionalProperties);
    }
  }

  /** The first item governed by `items` (after any prefixItems), adding one when the array has none. */
  visitItems(site: Site, schema: JsonObject, current: JsonValue[]): void {
    if (site.at.length >= MAX_DEPTH || !(isJsonObject(schema.items) || schema.items === true)) return;
    const index = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
    if (index > current.length) return;
    this.visitChild(site, index, schema.items as JsonSchema);
  }

  /** Descends into one property or item, filling it with a minimal value if the document lacks it. */
  visitChild(site: Site, key: Segment, schema: JsonSchema): void {
    const at = [...site.at, key];
    let doc = site.doc;
    if (getAt(doc, at) === undefined) {
      const value = minimalValue(this.checker, schema);
      if (value === undefined) return;
      doc = setAt(doc, at, value);
      if (!this.checker.valid(doc)) return;
    }
    this.visit({ ...site, doc, at }, schema);
  }

  /** One union branch, with the current value if the branch takes it, else the branch's minimal value. */
  visitBranch(site: Site, label: string, keyword: "anyOf" | "oneOf", branch: JsonSchema, current: JsonValue | undefined, tagged: boolean): void {
    let doc = site.doc;
    if (current === undefined || !this.checker.accepts(branch, current)) {
      const value = minimalValue(this.checker, branch);
      if (value === undefined) return;
      doc = setAt(doc, site.at, value);
      if (!this.checker.valid(doc)) return;
    }
    // A tagged union's branch reports as if it stood alone, inside whatever union (if any) holds it.
    if (tagged && site.union === undefined) return this.visit({ ...site, doc, tagged: site.tagged ? `${site.tagged}, ${label}` : label }, branch);
    // Nested unions still report at the outermost one; the label names the branch path taken.
    const union = site.union ? { ...site.union, branch: `${site.union.branch}, ${label}` } : { at: site.at, keyword, branch: label };
    this.visit({ ...site, doc, union }, branch);
  }
}

/**
 * The negatives for `base`, a document the checker's schema accepts, in a
 * stable order (schema order, depth first). Returns [] if `base` is invalid.
 */
export function deriveNegatives(checker: SchemaChecker, base: JsonValue, options: DeriveOptions = {}): Negative[] {
  if (!checker.valid(base)) return [];
  const deriver = new Deriver(checker, options);
  deriver.visit({ doc: base, at: [], refs: new Set() }, checker.root);
  return deriver.negatives;
}
