/**
 * `fetch.ts`: the web-standard Streamable HTTP entry, `createFetchHandler`,
 * bound to this project's contracts: `(request: Request) => Promise<Response>`
 * for Cloudflare Workers, Deno, Bun, route handlers and Hono. It imports no
 * `node:` module and needs no Node global, and it runs the same border as
 * http.ts (runtime/border.ts): Host and Origin, method, body cap,
 * `Mcp-Param-*` headers and, with `auth:` in the config, the OAuth gate.
 * Printed by the file builder, with or without auth, beside http.ts.
 */
import type { AuthSetting } from "../config/auth.js";
import type { EmittedFile } from "../ir.js";
import { FileBuilder, typeSymbol } from "../printer/file-builder.js";
import { runtimeSpecifier, runtimeValue } from "./runtime-symbols.js";
import { headerComment } from "../printer/header.js";
import {
  AUTH_OPTIONS,
  authDefaults,
  CONTRACTS,
  CREATE_AUTH_GATE,
  CREATE_SERVER,
  entryHandler,
  HANDLERS,
  reexports,
  SERVER_OPTIONS,
  type HttpEntry,
} from "./http-module.js";

const BORDER_RUNTIME = runtimeSpecifier("border");
const CREATE_TOOL_FETCH_HANDLER = runtimeValue("border", "createToolFetchHandler");
const FETCH_HANDLER_OPTIONS = typeSymbol("FetchHandlerOptions", BORDER_RUNTIME);

const SOCKETLESS = [
  "Without `localAddress` every request counts as arriving on loopback: only a localhost `Host` is answered",
  "unless `allowedHosts` lists the server's public names, which a deployed server sets.",
];

const FETCH_ENTRY: HttpEntry = {
  name: "createFetchHandler",
  handlerType: "(request: Request) => Promise<Response>",
  createTool: CREATE_TOOL_FETCH_HANDLER,
  optionsType: FETCH_HANDLER_OPTIONS,
  doc: [
    "A web-standard `fetch` handler serving MCP over Streamable HTTP, stateless: a fresh server per request.",
    "Export it as a Workers or Deno `fetch`, pass it to `Bun.serve`, or call it from a route handler.",
    ...SOCKETLESS,
  ],
  gatedDoc: [
    "A web-standard `fetch` handler serving MCP over Streamable HTTP, stateless: a fresh server per request,",
    "as an OAuth resource server: every request needs a valid bearer token, and a tool call the token's scopes do not cover gets 403.",
    ...SOCKETLESS,
    "It throws when the settings cannot verify a token (no resource, no authorization server, no key set or verify function).",
  ],
};

export function emitFetchModule(auth?: AuthSetting): EmittedFile {
  const file = new FileBuilder("fetch.ts", headerComment("the definitions folder"), { importOrder: "used" });
  file.reserve("createFetchHandler", "authDefaults");
  const gate = auth === undefined ? [] : [CREATE_AUTH_GATE, AUTH_OPTIONS];
  for (const symbol of [CONTRACTS, CREATE_SERVER, HANDLERS, SERVER_OPTIONS, ...gate, CREATE_TOOL_FETCH_HANDLER, FETCH_HANDLER_OPTIONS]) file.use(symbol);
  file.add(reexports(file, auth !== undefined, "FetchHandlerOptions", BORDER_RUNTIME));
  if (auth === undefined) file.add(entryHandler(FETCH_ENTRY, false));
  else file.add(authDefaults(auth), entryHandler(FETCH_ENTRY, true));
  return { path: file.path, text: file.toText() };
}
