// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The Host and Origin checks the border makes before anything runs
 * (border.ts), on every runtime. DNS rebinding points an attacker's name at the server's
 * address, so the browser of someone who can reach the server posts to it
 * with `Host` and `Origin` both the attacker's name: same-origin as far as
 * the headers go. A loopback server therefore checks the name the browser
 * thinks it is talking to (Host); a cross-site page is caught by its Origin,
 * which the MCP specification requires servers to check.
 *
 * A server that listens on another address and was told no `allowedHosts`
 * cannot tell its own name from a rebound one, so there an Origin proves
 * nothing: a request that carries one (it comes from a browser page) is
 * refused unless `allowedOrigins` lists it. Requests without an Origin (the
 * SDK client, curl, a proxy's health check) are served as before. The first
 * such connection also emits a process warning saying so, once per handler.
 * Where the local address is unknown (a fetch handler on a runtime without
 * a socket, unless told one) the connection counts as loopback: the strict
 * side, which refuses any Host but localhost's unless `allowedHosts` lists
 * it. Nothing here needs Node.
 */
import type { BorderOptions } from "./border.js";

const LOOPBACK_NAMES: ReadonlySet<string> = new Set([
  "localhost",
  "127.0.0.1",
  "[::1]",
]);

/** The code of the warning below, for `process.on("warning")` filters. */
export const UNCHECKED_HOST_WARNING = "TOOLC_HTTP_UNCHECKED_HOST";

/** Whether the connection arrived on a loopback interface, i.e. the server was bound to one, by its local address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  // An address nobody knows (a socket that lost it, a runtime without one) is treated as loopback: the strict side.
  if (address === undefined) return true;
  return (
    address === "::1" ||
    address.startsWith("127.") ||
    address.startsWith("::ffff:127.")
  );
}

/** The host and hostname of a `Host` header or an origin, lower-cased; undefined when it does not parse. */
function hostOf(url: string): { host: string; hostname: string } | undefined {
  try {
    const parsed = new URL(url);
    return {
      host: parsed.host.toLowerCase(),
      hostname: parsed.hostname.toLowerCase(),
    };
  } catch {
    return undefined;
  }
}

function hostAllowed(
  host: { host: string; hostname: string },
  allowed: readonly string[],
): boolean {
  return allowed.some((entry) => {
    const wanted = entry.toLowerCase();
    return wanted === host.host || wanted === host.hostname;
  });
}

/** Handlers (by their options object) that have warned already. */
const warned = new WeakSet<object>();

/** Node's process.emitWarning, read from globalThis; nothing where there is none. */
function warnOnce(options: BorderOptions): void {
  if (warned.has(options)) return;
  warned.add(options);
  const emit = (
    globalThis as {
      process?: {
        emitWarning?: (message: string, options: { code: string }) => void;
      };
    }
  ).process?.emitWarning;
  emit?.(
    "toolc: an MCP HTTP handler without `allowedHosts` got a request on a non-loopback address. It cannot tell its own host name from a DNS-rebound one there, so it refuses every request that carries an Origin (a browser page's) unless `allowedOrigins` lists it. Set `allowedHosts` to the server's public names, or listen on 127.0.0.1.",
    { code: UNCHECKED_HOST_WARNING },
  );
}

/** Why a request, by its headers and whether it came on loopback, must be refused before anything runs, or undefined. */
export function refusal(
  headers: Headers,
  loopback: boolean,
  options: BorderOptions,
): string | undefined {
  const hostHeader = headers.get("host");
  const host =
    hostHeader !== null && hostHeader !== ""
      ? hostOf(`http://${hostHeader}`)
      : undefined;
  if (options.allowedHosts !== undefined) {
    if (host === undefined || !hostAllowed(host, options.allowedHosts))
      return "Host not allowed.";
  } else if (
    loopback &&
    (host === undefined || !LOOPBACK_NAMES.has(host.hostname))
  ) {
    return "Host not allowed.";
  }
  const unchecked = !loopback && options.allowedHosts === undefined;
  if (unchecked) warnOnce(options);
  const origin = headers.get("origin");
  if (origin === null) return undefined;
  if (options.allowedOrigins !== undefined)
    return options.allowedOrigins.includes(origin)
      ? undefined
      : "Origin not allowed.";
  // Any Host is answered here, so an Origin equal to it proves nothing (see the module comment).
  if (unchecked) return "Origin not allowed.";
  const from = hostOf(origin);
  if (from === undefined) return "Origin not allowed.";
  if (host !== undefined && from.host === host.host) return undefined;
  if (loopback && LOOPBACK_NAMES.has(from.hostname)) return undefined;
  return "Origin not allowed.";
}
