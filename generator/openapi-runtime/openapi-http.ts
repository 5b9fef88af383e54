// Written by toolc import openapi: toolc's openapi-http runtime, copied as it is. A re-import overwrites it.
/**
 * Calls an HTTP API on behalf of the handlers `toolc import openapi` wrote
 * next to this file. Each handler hands over its operation's binding (method,
 * path, where each input property goes, how the answer comes back) and the
 * call context; this module builds the request, applies the credentials
 * from the environment, and maps the answer onto toolc's envelope:
 *
 * - 2xx: the JSON answer is the output as it is, whatever its root (an
 *   object, an array, a string); the executor validates it, so an answer of
 *   another shape, or one that is not JSON, is INVALID_OUTPUT;
 * - 429 and 503: `TransientError`, with `Retry-After` as its delay
 *   (RFC 9110 §10.2.3: seconds or an HTTP date), retried per the contract;
 *   a 429 on an operation that lists it among its errors (a tool that is not
 *   retried) is rejected instead, with Retry-After in the message;
 * - any other 4xx: `ctx.reject` with its reason (REJECTED), the declared one
 *   or the import's for an undeclared status (`4XX`), with the API's message;
 * - any other status, or no server configured: an error (FAILED).
 *
 * Written for Node.js 20+ and any runtime with `fetch`; it imports nothing.
 */

export type ParameterLocation = "path" | "query" | "header" | "cookie";

export interface ParameterBinding {
  readonly key?: string;
  readonly name: string;
  readonly in: ParameterLocation;
  readonly style: string;
  readonly explode: boolean;
  readonly value?: unknown;
}

export interface HttpOperation<Reason extends string = string> {
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly ParameterBinding[];
  readonly body?: {
    readonly encoding: "json" | "form" | "multipart" | "text" | "binary";
    readonly mediaType: string;
    readonly key?: string;
    readonly keys?: readonly string[];
    /** Body properties with a value of their own (the curation's `set`), sent beside `keys` on every call. */
    readonly fixed?: Readonly<Record<string, unknown>>;
    /** A multipart body's file parts: base64 input properties sent as bytes of this media type. */
    readonly files?: Readonly<Record<string, string>>;
  };
  readonly success:
    | { readonly kind: "json" }
    | { readonly kind: "empty" }
    | {
        readonly kind: "content";
        readonly block: "text" | "image" | "audio" | "resource";
      };
  readonly errors: Readonly<Record<string, Reason>>;
  readonly security: readonly (readonly string[])[];
}

/** A security scheme with the environment variables its credentials come from. */
export type SecuritySchemeBinding =
  | {
      readonly type: "apiKey";
      readonly in: "header" | "query" | "cookie";
      readonly name: string;
      readonly env: string;
    }
  | { readonly type: "bearer"; readonly env: string }
  | {
      readonly type: "basic";
      readonly env: { readonly username: string; readonly password: string };
    }
  | {
      readonly type: "oauth2";
      readonly tokenUrl?: string;
      readonly env: {
        readonly token: string;
        readonly clientId: string;
        readonly clientSecret: string;
        readonly tokenUrl: string;
      };
    };

export interface HttpApiDescription {
  readonly title: string;
  /** The environment variable that overrides the server URL. */
  readonly serverEnv: string;
  readonly server?: string;
  readonly securitySchemes: Readonly<Record<string, SecuritySchemeBinding>>;
}

export interface HttpApiOptions {
  /** The server URL; default: the `serverEnv` variable, else the API description's first server. */
  readonly baseUrl?: string;
  /** Where credentials and the server URL are read; default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The fetch to use; default: the global one. */
  readonly fetch?: typeof fetch;
  /** Headers sent with every request (a User-Agent, an API version). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The parts of a handler's `ctx` a call uses. */
export interface HttpCallContext<Reason extends string> {
  readonly signal: AbortSignal;
  reject(reason: Reason, message?: string): never;
  attach(block: AttachedBlock): void;
}

export type AttachedBlock =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | {
      type: "resource";
      resource:
        | { uri: string; mimeType?: string; blob: string }
        | { uri: string; mimeType?: string; text: string };
    };

type TransientErrorClass = new (
  message: string,
  options?: { retryAfterMs?: number; cause?: unknown },
) => Error;

export interface HttpApi {
  call<Output, Reason extends string = never>(
    operation: HttpOperation<Reason>,
    input: object,
    ctx: HttpCallContext<Reason>,
  ): Promise<Output>;
}

/** Messages from the API reach the caller shortened to this. */
const MAX_MESSAGE = 200;
/** A cached OAuth token is renewed this long before it expires. */
const TOKEN_MARGIN_MS = 30_000;

function processEnv(): Readonly<Record<string, string | undefined>> {
  const holder = globalThis as {
    process?: { env?: Record<string, string | undefined> };
  };
  return holder.process?.env ?? {};
}

/**
 * The environment without its empty variables: an empty one is unset. A host
 * that passes every setting it asked the user for (an MCP Bundle's
 * `user_config`) passes "" for one left blank, and a blank API key must not
 * make its scheme the one sent, nor a blank server URL hide the default.
 */
function setVariables(
  env: Readonly<Record<string, string | undefined>>,
): Readonly<Record<string, string>> {
  const set: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && value !== "") set[name] = value;
  return set;
}

/** `Retry-After`: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(
  header: string | null,
  now: number = Date.now(),
): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function scalar(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A value in a path or header (`simple` style): arrays and objects as comma-separated lists (OpenAPI 3.1 §4.8.12.4). */
function simple(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(scalar).join(",");
  if (value !== null && typeof value === "object") {
    return Object.entries(value)
      .map(([k, v]) => (explode ? `${k}=${scalar(v)}` : `${k},${scalar(v)}`))
      .join(",");
  }
  return scalar(value);
}

const DELIMITERS: Record<string, string> = {
  form: ",",
  spaceDelimited: " ",
  pipeDelimited: "|",
};

function appendQuery(
  query: URLSearchParams,
  p: ParameterBinding,
  value: unknown,
): void {
  if (Array.isArray(value)) {
    if (p.explode) for (const item of value) query.append(p.name, scalar(item));
    else
      query.append(p.name, value.map(scalar).join(DELIMITERS[p.style] ?? ","));
    return;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (p.style === "deepObject")
      for (const [k, v] of entries) query.append(`${p.name}[${k}]`, scalar(v));
    else if (p.explode)
      for (const [k, v] of entries) query.append(k, scalar(v));
    else
      query.append(
        p.name,
        entries.flatMap(([k, v]) => [k, scalar(v)]).join(","),
      );
    return;
  }
  query.append(p.name, scalar(value));
}

interface Request {
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  cookies: string[];
}

/** What an HTTP field value may hold (RFC 9110 §5.5): no CR, LF, NUL or other control, nothing fetch cannot send as a byte. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * A path parameter's segment. Empty, `.` and `..` would change which
 * resource the request names (`/users/..` is `/`), so they are refused
 * before any request; the contract's pattern refuses them as INVALID_INPUT
 * first, and this covers the values no pattern reaches (an array, a union).
 */
function pathSegment(p: ParameterBinding, value: unknown): string {
  const segment = encodeURIComponent(simple(value, p.explode));
  if (segment === "" || segment === "." || segment === "..")
    throw new Error(
      `path parameter ${p.name} would be the segment ${JSON.stringify(segment)}, which changes the request's path; no request was sent`,
    );
  return segment;
}

function applyParameters(
  operation: HttpOperation<string>,
  input: Record<string, unknown>,
  request: Request,
): void {
  for (const p of operation.parameters) {
    const value = p.key === undefined ? p.value : input[p.key];
    if (value === undefined) continue;
    if (p.in === "path")
      request.path = request.path
        .split(`{${p.name}}`)
        .join(pathSegment(p, value));
    else if (p.in === "query") appendQuery(request.query, p, value);
    else if (p.in === "header") {
      const text = simple(value, p.explode);
      if (!FIELD_VALUE.test(text))
        throw new Error(
          `header parameter ${p.name} holds a line break or another character a header cannot carry; no request was sent`,
        );
      request.headers[p.name.toLowerCase()] = text;
    } else
      request.cookies.push(
        `${p.name}=${encodeURIComponent(simple(value, false))}`,
      );
  }
}

/** Bytes from base64 text (the contract's pattern has checked it); the type inferred, so it reads as a BlobPart on every TypeScript version. */
function fromBase64(text: string) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * A multipart/form-data body (RFC 7578): one part per property, an array's
 * items as parts of the same name, a file from its base64 text as a part of
 * its media type named after the property, an object as JSON. fetch writes
 * the boundary into the Content-Type header itself.
 */
function multipartBody(
  fields: Record<string, unknown>,
  files: Readonly<Record<string, string>>,
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const type = files[name];
      if (type !== undefined && typeof item === "string")
        form.append(name, new Blob([fromBase64(item)], { type }), name);
      else if (item !== null && typeof item === "object")
        form.append(
          name,
          new Blob([JSON.stringify(item)], { type: "application/json" }),
        );
      else form.append(name, scalar(item));
    }
  }
  return form;
}

function bodyOf(
  operation: HttpOperation<string>,
  input: Record<string, unknown>,
): { payload: string | FormData; mediaType: string | undefined } | undefined {
  const body = operation.body;
  if (body === undefined) return undefined;
  let value: unknown;
  if (body.keys !== undefined) {
    const picked: Record<string, unknown> = { ...body.fixed };
    for (const key of body.keys)
      if (input[key] !== undefined) picked[key] = input[key];
    if (Object.keys(picked).length === 0 && body.encoding !== "json")
      return undefined;
    value = picked;
  } else {
    value = body.key === undefined ? undefined : input[body.key];
  }
  if (value === undefined) return undefined;
  if (body.encoding === "json")
    return { payload: JSON.stringify(value), mediaType: body.mediaType };
  const fields =
    value !== null && typeof value === "object"
      ? (value as Record<string, unknown>)
      : {};
  if (body.encoding === "multipart")
    return {
      payload: multipartBody(fields, body.files ?? {}),
      mediaType: undefined,
    };
  if (body.encoding === "form") {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(fields))
      for (const item of Array.isArray(v) ? v : [v])
        form.append(k, scalar(item));
    return { payload: form.toString(), mediaType: body.mediaType };
  }
  return { payload: scalar(value), mediaType: body.mediaType };
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The API's own words for a failure (`message`, `error`, `detail`, `title`), shortened, when its answer has them. */
function apiMessage(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object") return undefined;
  for (const key of ["message", "error", "detail", "title"]) {
    const value = (parsed as Record<string, unknown>)[key];
    if (typeof value === "string" && value.trim() !== "")
      return value.trim().slice(0, MAX_MESSAGE);
  }
  return undefined;
}

class Credentials {
  readonly #tokens = new Map<string, { token: string; expires: number }>();
  readonly schemes: Readonly<Record<string, SecuritySchemeBinding>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetcher: typeof fetch;

  constructor(
    schemes: Readonly<Record<string, SecuritySchemeBinding>>,
    env: Readonly<Record<string, string | undefined>>,
    fetcher: typeof fetch,
  ) {
    this.schemes = schemes;
    this.env = env;
    this.fetcher = fetcher;
  }

  /**
   * The first alternative whose credentials are all in the environment; none
   * applies when no alternative is complete. Returns the secret values sent,
   * which nothing the handler returns may contain.
   */
  async apply(
    alternatives: readonly (readonly string[])[],
    request: Request,
    signal: AbortSignal,
  ): Promise<string[]> {
    for (const alternative of alternatives) {
      const schemes = alternative.map((name) => this.schemes[name]);
      if (!schemes.every((s) => s !== undefined && this.#available(s)))
        continue;
      const secrets: string[] = [];
      for (const scheme of schemes)
        if (scheme)
          secrets.push(...(await this.#applyOne(scheme, request, signal)));
      return secrets;
    }
    return [];
  }

  #available(scheme: SecuritySchemeBinding): boolean {
    if (scheme.type === "basic")
      return this.env[scheme.env.username] !== undefined;
    if (scheme.type === "oauth2")
      return (
        this.env[scheme.env.token] !== undefined ||
        (this.env[scheme.env.clientId] !== undefined &&
          this.env[scheme.env.clientSecret] !== undefined)
      );
    return this.env[scheme.env] !== undefined;
  }

  async #applyOne(
    scheme: SecuritySchemeBinding,
    request: Request,
    signal: AbortSignal,
  ): Promise<string[]> {
    if (scheme.type === "apiKey") {
      const value = this.env[scheme.env] ?? "";
      if (scheme.in === "header")
        request.headers[scheme.name.toLowerCase()] = value;
      else if (scheme.in === "query") request.query.set(scheme.name, value);
      else request.cookies.push(`${scheme.name}=${encodeURIComponent(value)}`);
      return [value];
    }
    if (scheme.type === "bearer") {
      const token = this.env[scheme.env] ?? "";
      request.headers["authorization"] = `Bearer ${token}`;
      return [token];
    }
    if (scheme.type === "basic") {
      const username = this.env[scheme.env.username] ?? "";
      const password = this.env[scheme.env.password] ?? "";
      const encoded = base64(
        new TextEncoder().encode(`${username}:${password}`),
      );
      request.headers["authorization"] = `Basic ${encoded}`;
      return [password, encoded];
    }
    const token = await this.#oauthToken(scheme, signal);
    request.headers["authorization"] = `Bearer ${token}`;
    const secret = this.env[scheme.env.clientSecret];
    return secret === undefined ? [token] : [token, secret];
  }

  /** A token from the environment, else one from the client credentials grant (RFC 6749 §4.4), cached until shortly before it expires. */
  async #oauthToken(
    scheme: Extract<SecuritySchemeBinding, { type: "oauth2" }>,
    signal: AbortSignal,
  ): Promise<string> {
    const given = this.env[scheme.env.token];
    if (given !== undefined) return given;
    const tokenUrl = this.env[scheme.env.tokenUrl] ?? scheme.tokenUrl;
    if (tokenUrl === undefined)
      throw new Error(`no OAuth token URL: set ${scheme.env.tokenUrl}`);
    const cached = this.#tokens.get(tokenUrl);
    if (cached && cached.expires > Date.now()) return cached.token;
    const client = `${encodeURIComponent(this.env[scheme.env.clientId] ?? "")}:${encodeURIComponent(this.env[scheme.env.clientSecret] ?? "")}`;
    const response = await this.fetcher(tokenUrl, {
      method: "POST",
      // A token endpoint that redirects is not followed: the client secret goes to the URL configured, nowhere else.
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${base64(new TextEncoder().encode(client))}`,
        accept: "application/json",
      },
      body: "grant_type=client_credentials",
      signal,
    });
    const answer = (await response.json().catch(() => undefined)) as
      { access_token?: unknown; expires_in?: unknown } | undefined;
    if (!response.ok || typeof answer?.access_token !== "string")
      throw new Error(`the OAuth token endpoint answered ${response.status}`);
    const lifetime =
      typeof answer.expires_in === "number"
        ? answer.expires_in * 1000
        : 3_600_000;
    this.#tokens.set(tokenUrl, {
      token: answer.access_token,
      expires: Date.now() + lifetime - TOKEN_MARGIN_MS,
    });
    return answer.access_token;
  }
}

/** What a credential is replaced with in anything a handler returns (the executor's word for an `x-sensitive` value). */
const REDACTED = "[REDACTED]";
/** Shorter credentials are not scrubbed: they would match ordinary text everywhere. */
const MIN_SECRET = 3;
/** Redirects followed within the server's origin. */
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Removes the credentials a call sent from what it returns: the output, a
 * text block, a resource's URI, an error's message. Each credential in every
 * form it can come back in: as sent, percent- and form-encoded (a query API
 * key in a URL the API echoes), JSON-escaped.
 */
class Scrubber {
  readonly #forms: readonly string[];

  constructor(secrets: readonly string[]) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      if (secret.length < MIN_SECRET) continue;
      forms.add(secret);
      forms.add(encodeURIComponent(secret));
      forms.add(new URLSearchParams([["", secret]]).toString().slice(1));
      forms.add(JSON.stringify(secret).slice(1, -1));
    }
    this.#forms = [...forms].sort((a, b) => b.length - a.length);
  }

  text(text: string): string {
    let out = text;
    for (const form of this.#forms) out = out.split(form).join(REDACTED);
    return out;
  }

  /** A parsed JSON answer, scrubbed in place (keys too), without recursion: an answer may nest deeper than the stack. */
  value(root: unknown): unknown {
    if (this.#forms.length === 0) return root;
    if (typeof root === "string") return this.text(root);
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === null || typeof node !== "object") continue;
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const value = record[key];
        const scrubbed = typeof value === "string" ? this.text(value) : value;
        if (typeof value === "object" && value !== null) stack.push(value);
        const newKey = Array.isArray(node) ? key : this.text(key);
        if (newKey !== key) delete record[key];
        Object.defineProperty(record, newKey, {
          value: scrubbed,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return root;
  }
}

/** `ctx` whose rejections and attached blocks carry no credential. */
function scrubbedContext(
  ctx: HttpCallContext<string>,
  scrub: Scrubber,
): HttpCallContext<string> {
  return {
    signal: ctx.signal,
    reject: (reason, message) =>
      ctx.reject(
        reason,
        message === undefined ? undefined : scrub.text(message),
      ),
    attach: (block) => {
      if (block.type === "text")
        return ctx.attach({ type: "text", text: scrub.text(block.text) });
      if (block.type !== "resource") return ctx.attach(block);
      const resource = block.resource;
      const uri = scrub.text(resource.uri);
      ctx.attach({
        type: "resource",
        resource:
          "text" in resource
            ? { ...resource, uri, text: scrub.text(resource.text) }
            : { ...resource, uri },
      });
    },
  };
}

async function successOutput(
  operation: HttpOperation<string>,
  response: Response,
  url: string,
  ctx: HttpCallContext<string>,
  scrub: Scrubber,
): Promise<unknown> {
  const success = operation.success;
  if (success.kind === "empty") {
    await response.body?.cancel();
    return {};
  }
  if (success.kind === "content") {
    const mimeType =
      response.headers.get("content-type") ?? "application/octet-stream";
    if (success.block === "text")
      ctx.attach({ type: "text", text: await response.text() });
    else {
      const data = base64(new Uint8Array(await response.arrayBuffer()));
      ctx.attach(
        success.block === "resource"
          ? { type: "resource", resource: { uri: url, mimeType, blob: data } }
          : { type: success.block, data, mimeType },
      );
    }
    return { contentType: mimeType };
  }
  const text = await response.text();
  // An empty 2xx (a 204, or a 200 without content) is `{}`, the output of an answer without content; the executor still checks it.
  if (text.trim() === "") return {};
  try {
    return scrub.value(JSON.parse(text));
  } catch {
    // Not JSON: no value at all, which the executor reports as INVALID_OUTPUT whatever the output's root (the text itself would pass a string output).
    return undefined;
  }
}

export function createHttpApi(
  description: HttpApiDescription,
  options: HttpApiOptions,
  errors: { readonly TransientError: TransientErrorClass },
): HttpApi {
  const env = setVariables(options.env ?? processEnv());
  const fetcher = options.fetch ?? globalThis.fetch;
  const credentials = new Credentials(
    description.securitySchemes,
    env,
    fetcher,
  );

  /**
   * Sends the request with `redirect: "manual"` and follows a redirect only
   * within the server's origin (at most MAX_REDIRECTS): the credentials go
   * to the configured server and nowhere else. A redirect to another origin
   * is an error (FAILED), never followed.
   */
  async function send(
    url: string,
    init: RequestInit & { headers: Record<string, string> },
    origin: string,
  ): Promise<Response> {
    let target = url;
    let request = init;
    for (let hop = 0; ; hop++) {
      let response: Response;
      try {
        response = await fetcher(target, { ...request, redirect: "manual" });
      } catch (error) {
        if (request.signal?.aborted) throw error;
        throw new errors.TransientError(
          `${description.title} could not be reached`,
          { cause: error },
        );
      }
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || location === null) return response;
      await response.body?.cancel();
      const next = new URL(location, target);
      if (next.origin !== origin)
        throw new Error(
          `${description.title} redirected the request to another origin (${next.origin}); it was not followed, so the credentials stay with ${origin}`,
        );
      if (hop === MAX_REDIRECTS)
        throw new Error(
          `${description.title} redirected more than ${MAX_REDIRECTS} times`,
        );
      // 303, and 301/302 after a POST, continue as a GET without the body (RFC 9110 §15.4).
      if (
        response.status === 303 ||
        (request.method === "POST" &&
          (response.status === 301 || response.status === 302))
      ) {
        const headers = { ...request.headers };
        delete headers["content-type"];
        request = { ...request, method: "GET", headers, body: null };
      }
      target = next.href;
    }
  }

  async function call(
    operation: HttpOperation<string>,
    input: object,
    callerCtx: HttpCallContext<string>,
  ): Promise<unknown> {
    const server =
      options.baseUrl ?? env[description.serverEnv] ?? description.server;
    if (server === undefined || server === "")
      throw new Error(
        `no server URL for ${description.title}: set ${description.serverEnv}`,
      );
    const values = input as Record<string, unknown>;
    const request: Request = {
      path: operation.path,
      query: new URLSearchParams(),
      headers: {},
      cookies: [],
    };
    for (const [k, v] of Object.entries(options.headers ?? {}))
      request.headers[k.toLowerCase()] = v;
    applyParameters(operation, values, request);
    const scrub = new Scrubber(
      await credentials.apply(operation.security, request, callerCtx.signal),
    );
    const ctx = scrubbedContext(callerCtx, scrub);
    const body = bodyOf(operation, values);
    if (body?.mediaType !== undefined)
      request.headers["content-type"] = body.mediaType;
    request.headers["accept"] ??=
      operation.success.kind === "json" ? "application/json" : "*/*";
    if (request.cookies.length > 0)
      request.headers["cookie"] = request.cookies.join("; ");
    const search = request.query.toString();
    const url = `${server.replace(/\/+$/, "")}${request.path}${search === "" ? "" : `?${search}`}`;
    const response = await send(
      url,
      {
        method: operation.method,
        headers: request.headers,
        ...(body === undefined ? {} : { body: body.payload }),
        signal: ctx.signal,
      },
      new URL(url).origin,
    );
    // 429 is transient unless the operation rejects it (a tool the contract does not retry: a 429 never applied).
    if (
      (response.status === 429 && operation.errors["429"] === undefined) ||
      response.status === 503
    ) {
      await response.body?.cancel();
      const delay = retryAfterMs(response.headers.get("retry-after"));
      throw new errors.TransientError(
        `${description.title} answered ${response.status}`,
        delay === undefined ? {} : { retryAfterMs: delay },
      );
    }
    if (response.status >= 200 && response.status < 300)
      return successOutput(operation, response, url, ctx, scrub);
    const text = await response.text().catch(() => "");
    // Scrubbed before it is shortened, so no part of a credential is cut free of it.
    const said = apiMessage(scrub.text(text));
    // Any 4xx is the API's refusal: its declared reason, else the import's for an undeclared one (`4XX`).
    const reason =
      operation.errors[String(response.status)] ??
      (response.status >= 400 && response.status < 500
        ? operation.errors["4XX"]
        : undefined);
    const delay =
      response.status === 429
        ? retryAfterMs(response.headers.get("retry-after"))
        : undefined;
    const wait =
      delay === undefined ? "" : `; retry after ${Math.ceil(delay / 1000)} s`;
    const message = scrub.text(
      `${description.title} answered ${response.status}${said === undefined ? "" : `: ${said}`}${wait}`,
    );
    if (reason !== undefined) return ctx.reject(reason, message);
    throw new Error(message);
  }

  // The executor validates what a handler returns against the contract's output schema, so the answer needs no type check here.
  return { call: call as HttpApi["call"] };
}
