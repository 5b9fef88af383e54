/**
 * `http.ts`: the Streamable HTTP entry, `createHttpHandler`, bound to this
 * project's contracts. It is the only generated module that needs Node's
 * types (`node:http`), so it is kept out of `index.ts`: a stdio server, a
 * client or a browser bundle imports the index and never loads it.
 */
import type { EmittedFile } from "../ir.js";
import { headerComment } from "./header.js";

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

export function emitHttpModule(): EmittedFile {
  return { path: "http.ts", text: `${headerComment("the definitions folder")}\n\n${BODY}`, format: false };
}
