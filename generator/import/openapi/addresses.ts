/**
 * Which network addresses an API description read from the network may make
 * the import fetch from. A description is data from someone else: its `$ref`s
 * and its server's redirects must not reach this machine, its network, or the
 * cloud's metadata service. Every address a fetch would connect to is sorted
 * here: public addresses pass, loopback passes only when the user named a
 * loopback description (a server running here), anything else internal or
 * special never does.
 */
import { BlockList, isIP } from "node:net";

export type AddressClass = "public" | "loopback" | "internal";

// One list per family: a BlockList matches an IPv4 address against IPv6 rules too (as IPv4-mapped), and the other way round.
/** Loopback: this machine. */
const LOOPBACK = { ipv4: new BlockList(), ipv6: new BlockList() };
LOOPBACK.ipv4.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.ipv6.addAddress("::1", "ipv6");

/**
 * Everything else that is not a public unicast address (IANA's special-purpose
 * registries, RFC 6890): private, shared, link-local, unique-local,
 * documentation, multicast, reserved, and the IPv6 forms that carry an IPv4
 * address (v4-mapped, v4-compatible, NAT64, 6to4, Teredo), which could name
 * an internal IPv4 address inside an IPv6 one.
 */
const INTERNAL = { ipv4: new BlockList(), ipv6: new BlockList() };
for (const [net, bits] of [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 included
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["169.254.0.0", 16], // link-local, cloud metadata services
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast included
] as const)
  INTERNAL.ipv4.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128], // unspecified
  ["::", 96], // IPv4-compatible (deprecated)
  ["::ffff:0:0", 96], // IPv4-mapped
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard-only
  ["2001::", 32], // Teredo
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const)
  INTERNAL.ipv6.addSubnet(net, bits, "ipv6");

/** Sorts an IP address (v4 or v6, without brackets); a string that is not one is internal. */
export function addressClass(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return "internal";
  const type = family === 4 ? "ipv4" : "ipv6";
  if (LOOPBACK[type].check(address, type)) return "loopback";
  if (INTERNAL[type].check(address, type)) return "internal";
  return "public";
}

/** Why a fetch may not connect to `address`, or undefined when it may. */
export function refusedAddress(address: string, allowLoopback: boolean): string | undefined {
  const kind = addressClass(address);
  if (kind === "public" || (kind === "loopback" && allowLoopback)) return undefined;
  return kind === "loopback"
    ? `${address} is a loopback address (only a description you name on loopback may reference loopback)`
    : `${address} is an internal or special-purpose address (private, link-local, unique-local, IPv4-mapped, unspecified, …)`;
}

/** A URL's host as an IP address, without IPv6 brackets; undefined for a name. */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? undefined : host;
}

/**
 * The user named a description on this machine: `localhost` (and
 * `*.localhost`, RFC 6761) or a loopback address, written as such. A name
 * that merely resolves to loopback does not count: its owner's DNS decides
 * that, not the user.
 */
export function namesLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const literal = literalAddress(url);
  return literal !== undefined && addressClass(literal) === "loopback";
}
