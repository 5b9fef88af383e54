/**
 * `http.ts`: the Streamable HTTP entry, `createHttpHandler`, bound to this
 * project's contracts. It is the only generated module that needs Node's
 * types (`node:http`), so it is kept out of `index.ts`: a stdio server, a
 * client or a browser bundle imports the index and never loads it. With
 * `auth:` in the config it is an OAuth resource server too: the config's
 * values are its defaults, and the `auth` option overrides them.
 */
import type { AuthSetting } from "../config/auth.js";
import type { EmittedFile, JsonObject } from "../ir.js";
import { headerComment } from "./header.js";
import { literal } from "./literal.js";

/**
 * The reference directive makes the file type-check wherever `@types/node`
 * is installed, whatever `types` the consumer's tsconfig lists (TypeScript 6
 * and later default it to none); only a program that includes this file
 * sees Node's globals because of it.
 */
const BODY = `/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from "node:http";
import { contracts, createServer, type Handlers, type ServerOptions } from "./index.js";
import {
  createToolHttpHandler,
  type HttpHandlerOptions,
} from "./runtime/http.js";

export type { HttpHandlerOptions } from "./runtime/http.js";

/**
 * A Node \`(req, res)\` handler serving MCP over Streamable HTTP, stateless: a fresh server per request.
 * On MCP SDK 2.x it answers protocol 2026-07-28 and 2025-era clients on the same endpoint.
 */
export function createHttpHandler(
  handlers: Handlers,
  options?: ServerOptions & HttpHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return createToolHttpHandler(
    () => createServer(handlers, options),
    options,
    contracts,
  );
}
`;

function authBody(auth: AuthSetting): string {
  const defaults = literal(auth.server as unknown as JsonObject);
  return `/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from "node:http";
import { contracts, createServer, type Handlers, type ServerOptions } from "./index.js";
import { createAuthGate, type AuthOptions } from "./runtime/auth.js";
import {
  createToolHttpHandler,
  type HttpHandlerOptions,
} from "./runtime/http.js";

export type { HttpHandlerOptions } from "./runtime/http.js";
export type { AuthOptions, TokenAlgorithm, TokenVerifier, VerifiedToken } from "./runtime/auth.js";

/** The resource server's settings from toolc.config.yaml's \`auth\` section when this was generated; the \`auth\` option overrides each. */
const authDefaults: AuthOptions = ${defaults};

/**
 * A Node \`(req, res)\` handler serving MCP over Streamable HTTP, stateless: a fresh server per request.
 * It answers protocol 2026-07-28 and 2025-era clients on the same endpoint, as an OAuth resource server:
 * every request needs a valid bearer token, and a tool call the token's scopes do not cover gets 403.
 * It throws when the settings cannot verify a token (no resource, no authorization server, no key set or verify function).
 */
export function createHttpHandler(
  handlers: Handlers,
  options?: ServerOptions & HttpHandlerOptions & { auth?: AuthOptions },
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { auth, ...rest } = options ?? {};
  const gate = createAuthGate({ ...authDefaults, ...auth }, contracts);
  const serverOptions: ServerOptions = { listing: gate.listing, ...rest };
  return createToolHttpHandler(
    () => createServer(handlers, serverOptions),
    rest,
    contracts,
    gate,
  );
}
`;
}

export function emitHttpModule(auth?: AuthSetting): EmittedFile {
  const body = auth === undefined ? BODY : authBody(auth);
  return { path: "http.ts", text: `${headerComment("the definitions folder")}\n\n${body}`, format: auth !== undefined };
}
