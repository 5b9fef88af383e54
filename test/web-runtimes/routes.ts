/**
 * What every runtime in test/e2e/web-runtimes.test.ts serves, on one port:
 * the demo's generated tools at /mcp, and, when a generated auth project is
 * given, that project's tools behind its OAuth gate at /gated/mcp (with its
 * RFC 9728 metadata at /.well-known/oauth-protected-resource/gated/mcp), two
 * handlers side by side as an application with two servers mounts them. The
 * gate verifies tokens against the key set it is handed (TOOLC_RT_KEYS, the
 * test issuer's public keys), with jose on the runtime's `crypto.subtle`.
 * Nothing here needs Node.
 */
export type FetchHandler = (request: Request) => Promise<Response>;

/** The gated server's endpoint and resource. */
export const GATED_PATH = "/gated/mcp";
export const GATED_RESOURCE = `http://127.0.0.1${GATED_PATH}`;
const GATED_METADATA = `/.well-known/oauth-protected-resource${GATED_PATH}`;

/** Whether a request path is the gated server's (its endpoint or its metadata document). */
export function isGated(path: string): boolean {
  const bare = path.split("?")[0];
  return bare === GATED_PATH || bare === GATED_METADATA;
}

interface Caller {
  subject: string;
  clientId: string;
  scopes: readonly string[];
}

/** The auth project's handlers: each reports the caller the gate verified, so a test sees it reach the handler. */
export const gatedHandlers = {
  whoami: (_input: unknown, ctx: { auth?: Caller }) => ({ subject: ctx.auth?.subject ?? "", clientId: ctx.auth?.clientId ?? "", scopes: [...(ctx.auth?.scopes ?? [])] }),
  get_order: (input: { orderId: string }, ctx: { auth?: Caller }) => ({ orderId: input.orderId, status: "paid", caller: ctx.auth?.subject ?? "" }),
  refund_order: () => ({ refunded: true }),
  delete_customer: (input: { customerId: string }) => ({ deleted: input.customerId }),
};

/** The gated server's options: its own path and resource, and the test issuer's keys. */
export function gatedOptions(keys: string): { path: string; auth: { resource: string; keys: unknown } } {
  return { path: GATED_PATH, auth: { resource: GATED_RESOURCE, keys: JSON.parse(keys) as unknown } };
}

/** One fetch handler for both servers, by path. */
export function route(demo: FetchHandler, gated: FetchHandler | undefined): FetchHandler {
  return (request) => (gated !== undefined && isGated(new URL(request.url).pathname) ? gated(request) : demo(request));
}
