/**
 * The real Ajv, configured exactly as the shipped validators are, used at
 * generation time to verify every case the contract tests will assert: a
 * synthesized base must be valid, and a derived negative must be invalid at
 * the path the test names. Cases that fail verification are dropped, so a
 * generated test never asserts something the validator does not do.
 */
import type { ValidateFunction } from "ajv";
import { sharedAjv } from "../../ajv-shared.js";
import { withDiscriminators } from "../../discriminators.js";
import type { JsonObject, JsonSchema, JsonValue } from "../../ir.js";
import type { ValidationError } from "../../runtime/contract.js";
import { toIssues } from "../../runtime/issues.js";
import { isJsonObject } from "../../schema/json.js";
import { resolveLocalRef } from "../../schema/refs.js";

export type Segment = string | number;

/**
 * Keywords that make a node compiled on its own need `type: object` stated
 * (Ajv's strictTypes). Not the toolkit's subschema tables nor its
 * isObjectSchema, which ask where subschemas sit and whether a node
 * describes an object: this asks what Ajv refuses without a type.
 */
const OBJECT_KEYWORDS = ["properties", "required", "additionalProperties", "unevaluatedProperties", "propertyNames"];

/** One failing keyword, at the issue path the runtime would report for it. */
export interface Failure {
  readonly keyword: string;
  readonly path: string;
}

export function copy<T extends JsonValue>(value: T): T {
  return structuredClone(value);
}

type AjvError = ValidationError & { schemaPath?: string };

/**
 * The errors the runtime turns into issues: like toIssues, it leaves out the
 * errors raised inside an anyOf/oneOf branch, which surface at the union's own path.
 */
function reportedErrors(errors: readonly AjvError[]): AjvError[] {
  const unions = errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf").map((e) => e.schemaPath ?? "");
  return errors.filter((e) => !unions.some((u) => e.schemaPath !== u && (e.schemaPath ?? "").startsWith(`${u}/`)));
}

/**
 * Sub-schema validators by the JSON of the schema compiled, across all
 * checkers (see SchemaChecker#compile), held per shared Ajv instance so they
 * are dropped with it when a run ends.
 */
const compiledNodes = new WeakMap<object, Map<string, ValidateFunction>>();

export class SchemaChecker {
  readonly #root: JsonObject;
  readonly #rootValidate: ValidateFunction;
  /** Sub-schemas are checked without defaults: they only decide which union branch a value takes. */
  readonly #ajv = sharedAjv({ applyDefaults: false, validateSchema: false });
  /** Per node of this root, so a node asked about again needs no key. */
  readonly #byNode = new WeakMap<object, ValidateFunction>();

  /** @param applyDefaults as the shipped validator for this schema does (input yes, output no). */
  constructor(root: JsonObject, applyDefaults: boolean) {
    this.#root = root;
    // normalize's instance: it has compiled this very schema object already (Ajv caches by identity).
    this.#rootValidate = sharedAjv({ applyDefaults }).compile(withDiscriminators(root) as JsonObject);
  }

  get root(): JsonObject {
    return this.#root;
  }

  /** Whether the whole document is valid; validates a copy, since defaults are applied in place. */
  valid(doc: JsonValue): boolean {
    return this.#rootValidate(copy(doc));
  }

  /** The document as the handler would receive it: validated, with defaults applied. */
  resolved(doc: JsonValue): JsonValue {
    const data = copy(doc);
    if (!this.#rootValidate(data)) throw new Error("resolved() of an invalid document");
    return data;
  }

  /** Every failing keyword of an invalid document, with the issue path the runtime reports for it. */
  failures(doc: JsonValue): Failure[] {
    const data = copy(doc);
    if (this.#rootValidate(data)) return [];
    const errors = reportedErrors((this.#rootValidate.errors ?? []) as unknown as AjvError[]);
    return errors.map((error) => ({ keyword: error.keyword, path: toIssues([error], data)[0]?.path ?? "" }));
  }

  /** Whether `value` satisfies `schema`, a node of the root schema (its `$ref`s resolve against the root). */
  accepts(schema: JsonSchema, value: JsonValue): boolean {
    if (typeof schema === "boolean") return schema;
    let validate = this.#byNode.get(schema);
    if (validate === undefined) {
      validate = this.#compile(schema);
      this.#byNode.set(schema, validate);
    }
    return validate(copy(value));
  }

  /**
   * The node compiled on its own, with the root's `$defs` when it refers to
   * anything. Equal JSON compiles to the same validator, so the result is
   * shared by every checker in the process (tools repeat property schemas).
   */
  #compile(schema: JsonObject): ValidateFunction {
    const text = JSON.stringify(schema);
    // A union branch takes its type from the object holding it; compiled alone, strict mode needs it stated.
    const untypedObject = schema.type === undefined && OBJECT_KEYWORDS.some((k) => k in schema);
    const standalone: JsonObject = untypedObject ? { type: "object", ...schema } : { ...schema };
    if (this.#root.$defs !== undefined && text.includes('"$ref"')) standalone.$defs = this.#root.$defs;
    const key = standalone.$defs === undefined ? text : JSON.stringify(standalone);
    let byKey = compiledNodes.get(this.#ajv);
    if (byKey === undefined) compiledNodes.set(this.#ajv, (byKey = new Map()));
    let validate = byKey.get(key);
    if (validate === undefined) {
      validate = this.#ajv.compile(withDiscriminators(standalone) as JsonObject);
      byKey.set(key, validate);
    }
    return validate;
  }

  /** The node a local `$ref` (`#/...`) points at, or undefined when it points nowhere. */
  resolveRef(ref: string): JsonSchema | undefined {
    const node = resolveLocalRef(this.#root, ref);
    return typeof node === "boolean" || isJsonObject(node) ? node : undefined;
  }
}

/** A copy of `doc` with the value at `path` replaced (or removed, when `value` is undefined). */
export function setAt(doc: JsonValue, path: readonly Segment[], value: JsonValue | undefined): JsonValue {
  if (path.length === 0) {
    if (value === undefined) throw new Error("cannot remove the root");
    return copy(value);
  }
  const out = copy(doc);
  let node: JsonValue = out;
  for (const segment of path.slice(0, -1)) node = (node as Record<string, JsonValue>)[segment as string];
  const last = path[path.length - 1];
  if (Array.isArray(node) && typeof last === "number") {
    if (value === undefined) node.splice(last, 1);
    else node[last] = copy(value);
  } else if (isJsonObject(node)) {
    if (value === undefined) delete node[last as string];
    // defineProperty, so a key named __proto__ becomes a property rather than the prototype.
    else Object.defineProperty(node, last, { value: copy(value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The value at `path`, or undefined when there is none. */
export function getAt(doc: JsonValue, path: readonly Segment[]): JsonValue | undefined {
  let node: JsonValue | undefined = doc;
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === "number") node = node[segment];
    else if (isJsonObject(node) && typeof segment === "string" && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}
