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
import { isJsonObject } from "../../schema/json.js";
import type { JsonObject } from "../../ir.js";

const PROPERTY_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** Headers the transport sets itself; OpenAPI 3.x says a parameter of this name is ignored. */
const TRANSPORT_HEADERS = new Set(["accept", "content-type", "authorization"]);

export interface BuiltInput {
  readonly schema: JsonObject;
  readonly parameters: ParameterBinding[];
  readonly body: BodyBinding | undefined;
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
}

export function buildInput(ctx: Context): BuiltInput {
  const { op, curation, converter, report } = ctx;
  const names = new Names();
  const properties: JsonObject = {};
  const required: string[] = [];
  const defs: JsonObject = {};
  const parameters: ParameterBinding[] = [];
  let failed = false;
  const dropped = new Set(curation.drop ?? []);
  const fixed = curation.set ?? {};
  const added: HttpParameter[] = Object.entries(curation.add ?? {}).map(([name, p]) => ({
    name, in: p.in, required: p.in === "path" || p.required === true, schema: p.schema ?? { type: "string" }, description: p.description,
    style: p.in === "query" || p.in === "cookie" ? "form" : "simple", explode: p.in === "query" || p.in === "cookie", pointer: pointerJoin(op.pointer, "parameters"),
  }));
  for (const param of [...op.parameters, ...added]) {
    const base = { name: param.name, in: param.in, style: param.style, explode: param.explode };
    if (param.in === "header" && TRANSPORT_HEADERS.has(param.name.toLowerCase())) {
      ctx.conversions.add("transport header", param.pointer, `header parameter ${JSON.stringify(param.name)} left out: the handler sets it (OpenAPI 3.x ignores it as a parameter)`);
      continue;
    }
    if (Object.hasOwn(fixed, param.name)) {
      parameters.push({ ...base, value: fixed[param.name]! });
      continue;
    }
    if (dropped.has(param.name)) {
      if (param.required) report.error(param.pointer, `parameter ${JSON.stringify(param.name)} is required by the API, so the curation cannot drop it without a value in \`set\``);
      continue;
    }
    const key = names.take(param.name, param.in);
    if (key !== param.name) ctx.conversions.add("parameter renamed", param.pointer, `${param.in} parameter ${JSON.stringify(param.name)} is input property ${JSON.stringify(key)}`);
    const converted = converter.convertRoot(withDescription(param.schema, param.description), pointerJoin(param.pointer, "schema"), "input", report);
    failed ||= converted.failed;
    Object.assign(defs, converted.defs);
    properties[key] = markSensitive(converted.schema, key, param.name, ctx);
    if (param.required) required.push(key);
    parameters.push({ ...base, key });
  }
  for (const name of dropped) {
    if (!op.parameters.some((p) => p.name === name)) report.warn(op.pointer, `the curation drops parameter ${JSON.stringify(name)}, which this operation does not have`);
  }
  const body = buildBody(ctx, names, properties, required, defs);
  failed ||= body.failed;
  const schema: JsonObject = { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
  if (Object.keys(defs).length > 0) schema.$defs = Object.fromEntries(Object.keys(defs).sort().map((k) => [k, defs[k]!]));
  return { schema, parameters, body: body.binding, failed };
}

function buildBody(ctx: Context, names: Names, properties: JsonObject, required: string[], defs: JsonObject): { binding: BodyBinding | undefined; failed: boolean } {
  const { op, converter, report } = ctx;
  for (const other of op.otherBodies) {
    report.warn(pointerJoin(op.pointer, "requestBody"), `request body ${JSON.stringify(other)} is not offered: toolc sends JSON, form, text or binary bodies${op.body ? `; ${JSON.stringify(op.body.mediaType)} is used` : ""}`);
  }
  const body = op.body;
  if (!body) return { binding: undefined, failed: false };
  const binding = { encoding: body.encoding, mediaType: body.mediaType };
  const converted = converter.convertRoot(body.schema, body.pointer, "input", report);
  Object.assign(defs, converted.defs);
  const flat = flattenable(converter.resolve(body.schema), names);
  if (flat && isJsonObject(converted.schema)) {
    // A body that is a $ref was converted as a $defs entry: its properties are read there.
    const ref = (body.schema as JsonObject).$ref;
    const defName = typeof ref === "string" ? converter.defNameOfRef(ref) : undefined;
    const object = typeof ref === "string" ? (defName === undefined ? undefined : converted.defs[defName]) : converted.schema;
    if (isJsonObject(object) && isJsonObject(object.properties)) {
      const keys = Object.keys(object.properties);
      for (const key of keys) {
        names.take(key, "body");
        properties[key] = markSensitive(object.properties[key]!, key, key, ctx);
      }
      if (body.required && Array.isArray(object.required)) required.push(...object.required.filter((r): r is string => typeof r === "string"));
      ctx.conversions.add("body flattened", body.pointer, "the body's properties are input properties beside the parameters");
      return { binding: { ...binding, keys }, failed: converted.failed };
    }
  }
  const key = names.take(names.has("body") ? "request_body" : "body", "request");
  properties[key] = converted.schema;
  if (body.required) required.push(key);
  return { binding: { ...binding, key }, failed: converted.failed };
}

/** A body whose properties can sit beside the parameters: a plain object schema with valid, unclaimed names and nothing else that constrains it. */
function flattenable(schema: Json, names: Names): boolean {
  if (!isJsonObject(schema) || !isJsonObject(schema.properties)) return false;
  if (schema.type !== undefined && schema.type !== "object") return false;
  for (const key of ["allOf", "anyOf", "oneOf", "not", "additionalProperties", "patternProperties", "minProperties", "maxProperties", "nullable", "discriminator"]) {
    if (key in schema && !(key === "additionalProperties" && schema[key] === false)) return false;
  }
  const keys = Object.keys(schema.properties);
  return keys.length > 0 && keys.every((k) => PROPERTY_NAME.test(k) && !names.has(k));
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
  ctx.conversions.add("x-sensitive", pointerJoin(ctx.op.pointer, key), `input ${JSON.stringify(key)} marked x-sensitive (${byScheme ? "a security scheme names it" : "its name says it is a secret"})`);
  return { ...schema, "x-sensitive": true };
}
