/**
 * A contract's input from an operation's parameters and request body. Every
 * value the API takes becomes one input property: path, query, header and
 * cookie parameters by their names, and the body's properties beside them
 * when they fit (an object body whose names clash with no parameter), else
 * the whole body as `body`. Names are made safe for every provider
 * (`^[A-Za-z0-9_.-]{1,64}$`) and never collide: a second `id` in another
 * location becomes `query_id`, and so on.
 */
import { pointerJoin, type Reporter } from "../problems.js";
import type { BodyBinding, ParameterBinding } from "./binding.js";
import type { OperationCuration } from "./curation.js";
import type { HttpParameter, Json, Operation } from "./model.js";
import type { Conversions } from "./report.js";
import type { SchemaConverter } from "./schemas.js";
import { fileParts, hasFileParts } from "./multipart.js";
import { isJsonObject } from "../../schema/json.js";
import type { JsonObject } from "../../ir.js";

const PROPERTY_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** Headers the transport sets itself; OpenAPI 3.x says a parameter of this name is ignored. */
const TRANSPORT_HEADERS = new Set(["accept", "content-type", "authorization"]);

/** The request bodies the handlers send (model.ts bodyEncoding). */
export const SENDABLE_BODIES = "toolc sends JSON, application/x-www-form-urlencoded, multipart/form-data, text/* and application/octet-stream bodies";

export interface BuiltInput {
  readonly schema: JsonObject;
  readonly parameters: ParameterBinding[];
  readonly body: BodyBinding | undefined;
  /** The input property whose value goes in the idempotency key header, when the tool sends one. */
  readonly idempotencyKey: string | undefined;
  readonly failed: boolean;
}

function safeName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+(?=.)|(?<=.)_+$/g, "");
  return (cleaned === "" ? "param" : cleaned).slice(0, 64);
}

class Names {
  readonly #taken = new Set<string>();
  take(wanted: string, prefix: string): string {
    let name = safeName(wanted);
    if (this.#taken.has(name)) name = safeName(`${prefix}_${wanted}`);
    for (let i = 2; this.#taken.has(name); i++) name = safeName(`${prefix}_${wanted}_${i}`);
    this.#taken.add(name);
    return name;
  }
  has(name: string): boolean {
    return this.#taken.has(name);
  }
}

/** `description` from the parameter when its schema has none. */
function withDescription(schema: Json, description: string | undefined): Json {
  if (description === undefined || !isJsonObject(schema) || typeof schema.description === "string") return schema;
  return typeof schema.$ref === "string" ? { allOf: [schema], description } : { ...schema, description };
}

interface Context {
  readonly op: Operation;
  readonly curation: OperationCuration;
  readonly converter: SchemaConverter;
  readonly conversions: Conversions;
  readonly report: Reporter;
  readonly sensitive: ReadonlySet<string>;
  /** Reports an entry of this operation's curation at its place in the curation file (`path` below the operation's entry). */
  readonly curationWarning: (path: readonly (string | number)[], message: string) => void;
  /** The header that carries an idempotency key, for a write that is not idempotent (contract.ts decides). */
  readonly idempotencyHeader?: string | undefined;
}

/**
 * The curation's `drop` and `set` for one operation. Every name the
 * operation offers (a parameter, an added one, a flattened body property) is
 * recorded as it is built, so an entry that names none of them is reported
 * rather than silently doing nothing.
 */
class DropAndSet {
  readonly #drop: readonly string[];
  readonly #set: Readonly<Record<string, Json>>;
  readonly #offered = new Set<string>();

  constructor(curation: OperationCuration) {
    this.#drop = curation.drop ?? [];
    this.#set = curation.set ?? {};
  }

  /** `name` is one the operation has: the curation's entries for it match. */
  offers(name: string): void {
    this.#offered.add(name);
  }

  /** The curation's fixed value for `name`, sent instead of an input property. */
  fixed(name: string): { readonly value: Json } | undefined {
    return Object.hasOwn(this.#set, name) ? { value: this.#set[name]! } : undefined;
  }

  dropped(name: string): boolean {
    return this.#drop.includes(name);
  }

  reportUnmatched(ctx: Context, bodyKey: string | undefined): void {
    const whole =
      bodyKey === undefined ? "" : `; the request body is one input property (\`${bodyKey}\`), so its properties cannot be dropped or set one by one`;
    this.#drop.forEach((name, i) => {
      if (!this.#offered.has(name))
        ctx.curationWarning(["drop", i], `\`drop\` names ${JSON.stringify(name)}, which is neither a parameter nor a body property of this operation${whole}`);
    });
    for (const name of Object.keys(this.#set)) {
      if (this.#offered.has(name)) continue;
      ctx.curationWarning(
        ["set", name],
        `\`set\` names ${JSON.stringify(name)}, which is neither a parameter nor a body property of this operation, so nothing is sent${whole}; to send a header or query value the API does not declare, declare it in \`add\` as well (\`add: { ${name}: { in: header } }\`)`,
      );
    }
  }
}

/** The curation's `add` entries as parameters of the operation. */
function addedParameters(op: Operation, curation: OperationCuration): HttpParameter[] {
  return Object.entries(curation.add ?? {}).map(([name, p]) => ({
    name,
    in: p.in,
    required: p.in === "path" || p.required === true,
    schema: p.schema ?? { type: "string" },
    description: p.description,
    style: p.in === "query" || p.in === "cookie" ? "form" : "simple",
    explode: p.in === "query" || p.in === "cookie",
    pointer: pointerJoin(op.pointer, "parameters"),
  }));
}

/**
 * The idempotency key header as a parameter: the operation's own (made
 * required, since a retry is only safe when every call sends a key), else one
 * the curation names, added. Its value is the model's: the contract declares
 * it as `idempotencyKey`, and the executor hands every attempt of a call the
 * same input, so a retry repeats the key.
 */
function withIdempotencyKey(op: Operation, params: readonly HttpParameter[], header: string | undefined): HttpParameter[] {
  if (header === undefined) return [...params];
  const description = "A key unique to this request (a UUID): the API applies a request once per key, so a retry after a lost answer cannot apply it twice.";
  const found = params.findIndex((p) => p.in === "header" && p.name.toLowerCase() === header.toLowerCase());
  if (found < 0)
    return [
      ...params,
      {
        name: header,
        in: "header",
        required: true,
        schema: { type: "string" },
        description,
        style: "simple",
        explode: false,
        pointer: pointerJoin(op.pointer, "parameters"),
      },
    ];
  const param = params[found]!;
  return params.map((p, i) => (i === found ? { ...param, required: true, description: param.description ?? description } : p));
}

interface InputParts {
  readonly names: Names;
  readonly properties: JsonObject;
  readonly required: string[];
  readonly defs: JsonObject;
  readonly curated: DropAndSet;
}

export function buildInput(ctx: Context): BuiltInput {
  const parts: InputParts = { names: new Names(), properties: {}, required: [], defs: {}, curated: new DropAndSet(ctx.curation) };
  const params = buildParameters(ctx, parts);
  const body = buildBody(ctx, parts);
  parts.curated.reportUnmatched(ctx, body.binding?.key);
  const idempotencyKey = idempotencyKeyProperty(ctx, params.bindings, parts);
  const schema: JsonObject = { type: "object", properties: parts.properties, ...(parts.required.length > 0 ? { required: parts.required } : {}) };
  if (Object.keys(parts.defs).length > 0)
    schema.$defs = Object.fromEntries(
      Object.keys(parts.defs)
        .sort()
        .map((k) => [k, parts.defs[k]!]),
    );
  return { schema, parameters: params.bindings, body: body.binding, idempotencyKey, failed: params.failed || body.failed };
}

/** The input property bound to the idempotency key header, when it is a required string the model gives (not dropped, not a fixed value). */
function idempotencyKeyProperty(ctx: Context, bindings: readonly ParameterBinding[], parts: InputParts): string | undefined {
  const header = ctx.idempotencyHeader?.toLowerCase();
  if (header === undefined) return undefined;
  const key = bindings.find((b) => b.in === "header" && b.name.toLowerCase() === header)?.key;
  if (key === undefined) return undefined;
  const schema = parts.properties[key];
  if (isJsonObject(schema) && schema.type === "string" && parts.required.includes(key)) return key;
  ctx.report.warn(
    pointerJoin(ctx.op.pointer, "parameters"),
    `the idempotency key header ${JSON.stringify(ctx.idempotencyHeader)} is not a plain string parameter, so the tool is not retried`,
  );
  return undefined;
}

function buildParameters(ctx: Context, parts: InputParts): { bindings: ParameterBinding[]; failed: boolean } {
  const { op, converter, report } = ctx;
  const { names, properties, required, defs, curated } = parts;
  const bindings: ParameterBinding[] = [];
  let failed = false;
  for (const param of withIdempotencyKey(op, [...op.parameters, ...addedParameters(op, ctx.curation)], ctx.idempotencyHeader)) {
    const base = { name: param.name, in: param.in, style: param.style, explode: param.explode };
    if (param.in === "header" && TRANSPORT_HEADERS.has(param.name.toLowerCase())) {
      ctx.conversions.add(
        "transport header",
        param.pointer,
        `header parameter ${JSON.stringify(param.name)} left out: the handler sets it (OpenAPI 3.x ignores it as a parameter)`,
      );
      continue;
    }
    curated.offers(param.name);
    const fixed = curated.fixed(param.name);
    if (fixed) {
      bindings.push({ ...base, value: fixed.value });
      continue;
    }
    if (curated.dropped(param.name)) {
      if (param.required)
        report.error(
          param.pointer,
          `parameter ${JSON.stringify(param.name)} is required by the API, so the curation cannot drop it without a value in \`set\``,
        );
      continue;
    }
    const key = names.take(param.name, param.in);
    if (key !== param.name)
      ctx.conversions.add("parameter renamed", param.pointer, `${param.in} parameter ${JSON.stringify(param.name)} is input property ${JSON.stringify(key)}`);
    const converted = converter.convertRoot(withDescription(param.schema, param.description), pointerJoin(param.pointer, "schema"), "input", report);
    failed ||= converted.failed;
    Object.assign(defs, converted.defs);
    properties[key] = markSensitive(constrainForWire(converted.schema, param.in), key, param.name, ctx);
    if (param.required) required.push(key);
    bindings.push({ ...base, key });
  }
  return { bindings, failed };
}

function buildBody(ctx: Context, parts: InputParts): { binding: BodyBinding | undefined; failed: boolean } {
  const { op, converter, report } = ctx;
  const { names, properties, required, defs } = parts;
  for (const other of op.otherBodies) {
    report.warn(
      pointerJoin(op.pointer, "requestBody"),
      `request body ${JSON.stringify(other)} is not offered: ${SENDABLE_BODIES}${op.body ? `; ${JSON.stringify(op.body.mediaType)} is used` : ""}`,
    );
  }
  const body = op.body;
  if (!body) return { binding: undefined, failed: false };
  const binding = { encoding: body.encoding, mediaType: body.mediaType };
  const converted = converter.convertRoot(body.schema, body.pointer, "input", report);
  Object.assign(defs, converted.defs);
  const object = flattenable(converter.resolve(body.schema), names) ? bodyObject(converter, body.schema, converted) : undefined;
  if (object) {
    const flattened = flattenBody(ctx, parts, object);
    ctx.conversions.add("body flattened", body.pointer, "the body's properties are input properties beside the parameters");
    const files = body.encoding === "multipart" ? fileParts(converter, body, flattened.keys, parts.properties) : {};
    if (Object.keys(files).length > 0)
      ctx.conversions.add("file parts", body.pointer, `${Object.keys(files).join(", ")}: base64 text the handler sends as the part's bytes`);
    return { binding: { ...binding, ...flattened, ...(Object.keys(files).length > 0 ? { files } : {}) }, failed: converted.failed };
  }
  if (body.encoding === "multipart" && hasFileParts(converter, body)) {
    // Its files could only go as text: one warning, no tool (contract.ts skips an operation whose input failed).
    report.warn(
      body.pointer,
      "skipped: a multipart/form-data body with file parts is sent only when it is a plain object whose property names are free for input properties (no allOf/oneOf, no name shared with a parameter); write this tool's contract and handler by hand",
    );
    return { binding: undefined, failed: true };
  }
  const key = names.take(names.has("body") ? "request_body" : "body", "request");
  properties[key] = converted.schema;
  // A body with required properties of its own is required too: sent without them, the API refuses it.
  const resolved = converter.resolve(body.schema);
  if (body.required || (isJsonObject(resolved) && Array.isArray(resolved.required) && resolved.required.length > 0)) required.push(key);
  return { binding: { ...binding, key }, failed: converted.failed };
}

/** The converted body as an object with properties; a body that is a $ref was converted as a $defs entry, so its properties are read there. */
function bodyObject(
  converter: SchemaConverter,
  source: Json,
  converted: { schema: Json; defs: JsonObject },
): (JsonObject & { properties: JsonObject }) | undefined {
  const ref = isJsonObject(source) ? source.$ref : undefined;
  const defName = typeof ref === "string" ? converter.defNameOfRef(ref) : undefined;
  const object = typeof ref === "string" ? (defName === undefined ? undefined : converted.defs[defName]) : converted.schema;
  return isJsonObject(object) && isJsonObject(object.properties) ? (object as JsonObject & { properties: JsonObject }) : undefined;
}

/**
 * The body's properties as input properties, less those the curation drops
 * or sets; a set value is sent in the body on every call. A property the
 * body requires cannot be dropped without a value, as for a parameter.
 */
function flattenBody(ctx: Context, parts: InputParts, object: JsonObject & { properties: JsonObject }): { keys: string[]; fixed?: JsonObject } {
  const body = ctx.op.body!;
  const requiredByBody = new Set(Array.isArray(object.required) ? object.required.filter((r): r is string => typeof r === "string") : []);
  const keys: string[] = [];
  const fixed: JsonObject = {};
  for (const key of Object.keys(object.properties)) {
    parts.curated.offers(key);
    const value = parts.curated.fixed(key);
    if (value) fixed[key] = value.value;
    else if (!parts.curated.dropped(key)) keys.push(key);
    else if (requiredByBody.has(key))
      ctx.report.error(body.pointer, `body property ${JSON.stringify(key)} is required by the API, so the curation cannot drop it without a value in \`set\``);
  }
  for (const key of keys) {
    parts.names.take(key, "body");
    parts.properties[key] = markSensitive(object.properties[key]!, key, key, ctx);
  }
  const offered = new Set(keys);
  // The body's own `required` holds whether or not the body is: a model always sends a body, and one without these fields is refused by the API.
  parts.required.push(...[...requiredByBody].filter((r) => offered.has(r) || !Object.hasOwn(object.properties, r)));
  return Object.keys(fixed).length === 0 ? { keys } : { keys, fixed };
}

/** A body whose properties can sit beside the parameters: a plain object schema with valid, unclaimed names and nothing else that constrains it. */
function flattenable(schema: Json, names: Names): boolean {
  if (!isJsonObject(schema) || !isJsonObject(schema.properties)) return false;
  if (schema.type !== undefined && schema.type !== "object") return false;
  for (const key of [
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "additionalProperties",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "nullable",
    "discriminator",
  ]) {
    if (key in schema && !(key === "additionalProperties" && schema[key] === false)) return false;
  }
  const keys = Object.keys(schema.properties);
  return keys.length > 0 && keys.every((k) => PROPERTY_NAME.test(k) && !names.has(k));
}

/**
 * A path segment that is empty, `.` or `..` would change which resource the
 * request names (`DELETE /users/..` is `DELETE /`, with the credentials): a
 * path parameter's string must hold a character other than `.`, or at least
 * three dots. Unanchored, the pattern accepts exactly the other strings.
 */
export const PATH_SEGMENT_PATTERN = "[^.]|\\.{3}";
/**
 * What an HTTP field value may hold (RFC 9110 §5.5: visible ASCII, space,
 * tab, and obs-text bytes): never CR, LF or NUL, which would end or split the
 * header, nor a character fetch cannot send as a byte.
 */
export const HEADER_VALUE_PATTERN = "^[\\t\\x20-\\x7e\\x80-\\xff]*$";

function isStringSchema(schema: Json): boolean {
  return isJsonObject(schema) && (schema.type === "string" || (Array.isArray(schema.type) && schema.type.includes("string")));
}

/** `schema` with `pattern` added beside any pattern of its own (an `allOf` then holds the second). */
function withPattern(schema: JsonObject, pattern: string): JsonObject {
  if (schema.pattern === undefined) return { ...schema, pattern };
  const allOf = Array.isArray(schema.allOf) ? schema.allOf : [];
  return { ...schema, allOf: [...allOf, { type: schema.type!, pattern }] };
}

/**
 * A parameter's schema with what its place on the wire needs, so a value that
 * would re-target the request or break its headers is INVALID_INPUT at that
 * argument before any request. Strings only (an array header's items too);
 * the runtime refuses the rest before sending (openapi-http.ts).
 */
function constrainForWire(schema: Json, location: HttpParameter["in"]): Json {
  if (location === "path" && isStringSchema(schema)) return withPattern(schema as JsonObject, PATH_SEGMENT_PATTERN);
  if (location !== "header" || !isJsonObject(schema)) return schema;
  if (isStringSchema(schema)) return withPattern(schema, HEADER_VALUE_PATTERN);
  if (schema.type === "array" && isStringSchema(schema.items as Json))
    return { ...schema, items: withPattern(schema.items as JsonObject, HEADER_VALUE_PATTERN) };
  return schema;
}

/**
 * Secret-looking names (`password`, `api_key`, `*_token`, `client_secret`)
 * and the parameters a security scheme names carry `x-sensitive: true`.
 */
export function isSecretName(name: string): boolean {
  const flat = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return ["password", "passwd", "secret", "token", "apikey", "privatekey", "accesskey", "credential", "credentials"].some((s) => flat.endsWith(s));
}

function markSensitive(schema: Json, key: string, wireName: string, ctx: Context): Json {
  const byScheme = ctx.sensitive.has(wireName.toLowerCase());
  if (!byScheme && !isSecretName(wireName)) return schema;
  if (!isJsonObject(schema) || typeof schema.$ref === "string") return schema;
  const type = schema.type;
  const stringy = type === undefined || type === "string" || (Array.isArray(type) && type.includes("string"));
  if (!stringy || schema["x-sensitive"] === true) return schema;
  ctx.conversions.add(
    "x-sensitive",
    pointerJoin(ctx.op.pointer, key),
    `input ${JSON.stringify(key)} marked x-sensitive (${byScheme ? "a security scheme names it" : "its name says it is a secret"})`,
  );
  return { ...schema, "x-sensitive": true };
}
