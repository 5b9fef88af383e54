/**
 * `http.ts`: the Streamable HTTP entry, `createHttpHandler`, bound to this
 * project's contracts. It is the only generated module that needs Node's
 * types (`node:http`), so it is kept out of `index.ts`: a stdio server, a
 * client or a browser bundle imports the index and never loads it. With
 * `auth:` in the config it is an OAuth resource server too: the config's
 * values are its defaults, and the `auth` option overrides them. Printed in
 * toolc's layout by the file builder, with or without auth.
 */
import type { AuthSetting } from "../config/auth.js";
import type { EmittedFile, JsonObject } from "../ir.js";
import { code, FileBuilder, typeSymbol, valueSymbol, type Code, type ImportSymbol } from "../printer/file-builder.js";
import { runtimeSpecifier, runtimeValue } from "./runtime-symbols.js";
import { headerComment } from "../printer/header.js";
import { fittedLiteral, jsDoc } from "../printer/literal.js";

const INDEX = "./index.js";
const HTTP_RUNTIME = runtimeSpecifier("http");
const AUTH_RUNTIME = runtimeSpecifier("auth");

const INCOMING_MESSAGE = typeSymbol("IncomingMessage", "node:http");
const SERVER_RESPONSE = typeSymbol("ServerResponse", "node:http");
export const CONTRACTS = valueSymbol("contracts", INDEX);
export const CREATE_SERVER = valueSymbol("createServer", INDEX);
export const HANDLERS = typeSymbol("Handlers", INDEX);
export const SERVER_OPTIONS = typeSymbol("ServerOptions", INDEX);
export const CREATE_AUTH_GATE = runtimeValue("auth", "createAuthGate");
export const AUTH_OPTIONS = typeSymbol("AuthOptions", AUTH_RUNTIME);
const CREATE_TOOL_HTTP_HANDLER = runtimeValue("http", "createToolHttpHandler");
const HTTP_HANDLER_OPTIONS = typeSymbol("HttpHandlerOptions", HTTP_RUNTIME);

/**
 * The reference directive makes the file type-check wherever `@types/node`
 * is installed, whatever `types` the consumer's tsconfig lists (TypeScript 6
 * and later default it to none); only a program that includes this file
 * sees Node's globals because of it.
 */
const NODE_TYPES = '/// <reference types="node" />';

/** The imports in reading order, Node's first: the block is laid out in the order they are used, and this fixes that order. */
function importsInOrder(auth: boolean): ImportSymbol[] {
  const gate = auth ? [CREATE_AUTH_GATE, AUTH_OPTIONS] : [];
  return [INCOMING_MESSAGE, SERVER_RESPONSE, CONTRACTS, CREATE_SERVER, HANDLERS, SERVER_OPTIONS, ...gate, CREATE_TOOL_HTTP_HANDLER, HTTP_HANDLER_OPTIONS];
}

/** The runtime types a caller passes in options, re-exported so they need no import from runtime/. */
export function reexports(file: FileBuilder, auth: boolean, options = "HttpHandlerOptions", from = HTTP_RUNTIME): string {
  const http = file.print({ kind: "exportFrom", typeOnly: true, names: [options], from });
  if (!auth) return http;
  const gate = file.print({
    kind: "exportFrom",
    typeOnly: true,
    names: ["AuthOptions", "TokenAlgorithm", "TokenVerifier", "VerifiedToken"],
    from: AUTH_RUNTIME,
  });
  return `${http}\n${gate}`;
}

const HANDLER_TYPE = code`(req: ${INCOMING_MESSAGE}, res: ${SERVER_RESPONSE}) => Promise<void>`;

/** One HTTP entry's shape: its name, what it returns, the runtime function it binds, its options type and its doc. */
export interface HttpEntry {
  readonly name: string;
  readonly handlerType: Code | string;
  readonly createTool: ImportSymbol;
  readonly optionsType: ImportSymbol;
  readonly doc: readonly string[];
  /** The doc with auth: what the gate adds. */
  readonly gatedDoc: readonly string[];
}

/**
 * The entry function both HTTP modules print (http.ts, fetch.ts): the runtime
 * function bound to this project's contracts and server, and with auth the
 * gate, built from the config's `auth` values with the `auth` option over
 * them one by one (an `undefined` there keeps the config's).
 */
export function entryHandler(entry: HttpEntry, auth: boolean): Code {
  const { name, handlerType, createTool, optionsType } = entry;
  if (!auth)
    return code`${jsDoc([...entry.doc])!}
export function ${name}(
  handlers: ${HANDLERS},
  options?: ${SERVER_OPTIONS} & ${optionsType},
): ${handlerType} {
  // Declared rate limits are counted once, at the border, which answers 429.
  return ${createTool}(
    () => ${CREATE_SERVER}(handlers, { ...options, countRateLimits: false }),
    options,
    ${CONTRACTS},
  );
}`;
  return code`${jsDoc([...entry.gatedDoc])!}
export function ${name}(
  handlers: ${HANDLERS},
  options?: ${SERVER_OPTIONS} & ${optionsType} & { auth?: ${AUTH_OPTIONS} },
): ${handlerType} {
  const { auth, ...rest } = options ?? {};
  const gate = ${CREATE_AUTH_GATE}(auth ?? {}, ${CONTRACTS}, authDefaults);
  // Declared rate limits are counted once, at the border, which answers 429.
  const serverOptions: ${SERVER_OPTIONS} = {
    listing: gate.listing,
    ...rest,
    countRateLimits: false,
  };
  return ${createTool}(
    () => ${CREATE_SERVER}(handlers, serverOptions),
    rest,
    ${CONTRACTS},
    gate,
  );
}`;
}

/** The config's `auth` values, which the handler's `auth` option overrides one by one (an `undefined` there keeps the config's). */
export function authDefaults(auth: AuthSetting): Code {
  const doc = jsDoc([
    "The resource server's settings from toolc.config.yaml's `auth` section when this was generated; the `auth` option overrides each, except with `undefined`.",
  ])!;
  return code`${doc}
const authDefaults: ${AUTH_OPTIONS} = ${fittedLiteral(auth.server as unknown as JsonObject)};`;
}

const NODE_ENTRY: HttpEntry = {
  name: "createHttpHandler",
  handlerType: HANDLER_TYPE,
  createTool: CREATE_TOOL_HTTP_HANDLER,
  optionsType: HTTP_HANDLER_OPTIONS,
  doc: [
    "A Node `(req, res)` handler serving MCP over Streamable HTTP, stateless: a fresh server per request.",
    "On MCP SDK 2.x it answers protocol 2026-07-28 and 2025-era clients on the same endpoint.",
  ],
  gatedDoc: [
    "A Node `(req, res)` handler serving MCP over Streamable HTTP, stateless: a fresh server per request.",
    "It answers protocol 2026-07-28 and 2025-era clients on the same endpoint, as an OAuth resource server:",
    "every request needs a valid bearer token, and a tool call the token's scopes do not cover gets 403.",
    "It throws when the settings cannot verify a token (no resource, no authorization server, no key set or verify function).",
  ],
};

export function emitHttpModule(auth?: AuthSetting): EmittedFile {
  const file = new FileBuilder("http.ts", headerComment("the definitions folder"), { importOrder: "used" });
  file.directive(NODE_TYPES);
  file.reserve("createHttpHandler", "authDefaults");
  for (const symbol of importsInOrder(auth !== undefined)) file.use(symbol);
  file.add(reexports(file, auth !== undefined));
  if (auth === undefined) file.add(entryHandler(NODE_ENTRY, false));
  else file.add(authDefaults(auth), entryHandler(NODE_ENTRY, true));
  return { path: file.path, text: file.toText() };
}
