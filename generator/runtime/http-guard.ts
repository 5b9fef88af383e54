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
 * A server that listens on another address and was told neither
 * `allowedHosts` nor `allowedOrigins` cannot tell its own name from a rebound
 * one, so it refuses every request there (403), and says in the answer which
 * option is missing. With `allowedOrigins` alone it answers any Host, and an
 * Origin proves nothing unless that list names it: a request that carries
 * one (a browser page's) is refused unless it is listed; requests without an
 * Origin (the SDK client, curl, a proxy's health check) are served.
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

/** The refusal of a request on a non-loopback address by a server told neither allowedHosts nor allowedOrigins. */
export const UNCONFIGURED_HOST =
  "Host not allowed: a server on a non-loopback address needs allowedHosts (or allowedOrigins).";

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
  // Neither option: nothing vouches for any name or page, so nothing is answered.
  if (unchecked && options.allowedOrigins === undefined)
    return UNCONFIGURED_HOST;
  const origin = headers.get("origin");
  if (origin === null) return undefined;
  if (options.allowedOrigins !== undefined)
    return options.allowedOrigins.includes(origin)
      ? undefined
      : "Origin not allowed.";
  const from = hostOf(origin);
  if (from === undefined) return "Origin not allowed.";
  if (host !== undefined && from.host === host.host) return undefined;
  if (loopback && LOOPBACK_NAMES.has(from.hostname)) return undefined;
  return "Origin not allowed.";
}
