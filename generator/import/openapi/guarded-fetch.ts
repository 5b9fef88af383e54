/**
 * GET over http(s) for an API description and its references, checked
 * against the address each request connects to. The check runs inside the
 * connection's own DNS lookup, so the address checked is the address used (a
 * second lookup cannot answer differently, DNS rebinding); an IP literal is
 * checked before connecting. Redirects are followed here, one hop at a time,
 * each hop checked the same way, at most MAX_REDIRECTS; bodies are bounded
 * in size and time.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { literalAddress, refusedAddress } from "./addresses.js";

export const MAX_REDIRECTS = 5;
const TIMEOUT_MS = 60_000;

export interface FetchPolicy {
  /** Loopback addresses may be reached (the user named a description on loopback). */
  readonly allowLoopback: boolean;
  /** The largest body read, in bytes. */
  readonly maxBytes: number;
}

/** A fetch that was refused or failed; `message` says which hop and why. */
export class FetchRefused extends Error {}

/** A lookup that answers only addresses the policy allows; any refused address fails the connection. */
function guardedLookup(policy: FetchPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      for (const { address } of addresses) {
        const why = refusedAddress(address, policy.allowLoopback);
        if (why !== undefined) return callback(new FetchRefused(`${hostname} resolves to ${why}`), "", 0);
      }
      if (addresses.length === 0) return callback(new FetchRefused(`${hostname} resolves to no address`), "", 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

interface Answer {
  readonly status: number;
  readonly location: string | undefined;
  readonly body: Buffer;
}

function getOnce(url: URL, policy: FetchPolicy): Promise<Answer> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      url,
      { method: "GET", lookup: guardedLookup(policy), timeout: TIMEOUT_MS, headers: { accept: "application/json, application/yaml, */*" } },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return resolve({ status, location: res.headers.location, body: Buffer.alloc(0) });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > policy.maxBytes) {
            req.destroy(new FetchRefused(`the answer is larger than ${policy.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => resolve({ status, location: undefined, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new FetchRefused(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on("error", reject);
    req.end();
  });
}

/** Why `url` may not be requested before any connection, or undefined. */
export function refusedUrl(url: URL, policy: FetchPolicy): string | undefined {
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${url.protocol} URLs are not read (only http: and https:)`;
  if (url.username !== "" || url.password !== "") return "a URL with credentials in it is not read";
  const literal = literalAddress(url);
  return literal === undefined ? undefined : refusedAddress(literal, policy.allowLoopback);
}

/**
 * The body at `location`, following at most MAX_REDIRECTS redirects. Throws
 * FetchRefused naming the hop: `redirect 2 (http://…): …`.
 */
export async function guardedGet(location: string, policy: FetchPolicy): Promise<{ readonly url: string; readonly body: Buffer }> {
  let url = new URL(location);
  for (let hop = 0; ; hop++) {
    const where = hop === 0 ? url.href : `redirect ${hop} (${url.href})`;
    const why = refusedUrl(url, policy);
    if (why !== undefined) throw new FetchRefused(`${where}: refused: ${why}`);
    let answer: Answer;
    try {
      answer = await getOnce(url, policy);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      throw new FetchRefused(`${where}: ${e instanceof FetchRefused ? "refused: " : ""}${message}`);
    }
    if (answer.status >= 300 && answer.status < 400) {
      if (answer.location === undefined) throw new FetchRefused(`${where}: HTTP ${answer.status} without a Location`);
      if (hop === MAX_REDIRECTS) throw new FetchRefused(`${where}: more than ${MAX_REDIRECTS} redirects`);
      try {
        url = new URL(answer.location, url);
      } catch {
        throw new FetchRefused(`${where}: HTTP ${answer.status} to a Location that is not a URL`);
      }
      continue;
    }
    if (answer.status < 200 || answer.status >= 300) throw new FetchRefused(`${where}: HTTP ${answer.status}`);
    return { url: url.href, body: answer.body };
  }
}
