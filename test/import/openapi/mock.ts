/**
 * The API's stand-in for the end-to-end test: Prism (`prism mock`), which
 * answers from the same description the import read and checks each request
 * against it, on loopback; in front of it a small recording proxy that
 * shows what reached the API and steers single answers. Prism picks its
 * status per request from the `Prefer: code=…` header, which the proxy adds
 * when told to; Prism cannot send a malformed answer or a `Retry-After`
 * it was not described with, so for those the proxy rewrites Prism's answer.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { ROOT } from "../../compiler/helpers.js";

const PRISM = join(ROOT, "node_modules/@stoplight/prism-cli/dist/index.js");

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string[]>;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** What went back to the caller. */
  status: number;
  answer: string;
  /** What Prism answered (differs from `status` when a rule replaced the answer). */
  upstream: number;
}

/** One steered answer: the next request gets this treatment, then the rule is used up. */
export type Steer =
  | { readonly prefer: string; readonly retryAfter?: string }
  | { readonly replaceBody: string }
  /** Prism still checks the request; the caller gets this status and JSON body instead of Prism's answer (a status the description does not declare, which Prism will not send). */
  | { readonly replaceStatus: number; readonly body: unknown };

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface Prism {
  readonly url: string;
  readonly log: () => string;
  stop(): Promise<void>;
}

/** Starts `prism mock SPEC` on loopback and waits until it listens (bounded: 120 s). */
export async function startPrism(spec: string): Promise<Prism> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [PRISM, "mock", "--host", "127.0.0.1", "--port", String(port), "--errors", spec], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout!.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  const deadline = Date.now() + 120_000;
  while (!/Prism is listening/.test(log)) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}):\n${log}`);
    if (Date.now() > deadline) throw new Error(`prism did not start within 120 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => log,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    }),
  };
}

export interface Proxy {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Rules for the next requests, in order. */
  steer(...rules: Steer[]): void;
  stop(): Promise<void>;
}

export async function startProxy(target: string): Promise<Proxy> {
  const requests: RecordedRequest[] = [];
  const rules: Steer[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://proxy");
      const query: Record<string, string[]> = {};
      for (const [k, v] of url.searchParams) (query[k] ??= []).push(v);
      const recorded: RecordedRequest = { method: req.method ?? "", path: url.pathname, query, headers: req.headers, body: Buffer.concat(chunks).toString(), status: 0, answer: "", upstream: 0 };
      requests.push(recorded);
      const rule = rules.shift();
      const headers = { ...req.headers, host: upstream.host, ...(rule && "prefer" in rule ? { prefer: rule.prefer } : {}) };
      const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (c: Buffer) => parts.push(c));
        answer.on("end", () => {
          const replaced = rule && "replaceStatus" in rule ? rule : undefined;
          const body = rule && "replaceBody" in rule ? rule.replaceBody : replaced ? JSON.stringify(replaced.body) : Buffer.concat(parts).toString();
          const type = replaced ? { "content-type": "application/json" } : {};
          const out = { ...answer.headers, ...type, "content-length": String(Buffer.byteLength(body)), ...(rule && "retryAfter" in rule && rule.retryAfter !== undefined ? { "retry-after": rule.retryAfter } : {}) };
          recorded.upstream = answer.statusCode ?? 0;
          recorded.status = replaced?.replaceStatus ?? answer.statusCode ?? 0;
          recorded.answer = body;
          res.writeHead(recorded.status || 502, out);
          res.end(body);
        });
      });
      forward.on("error", (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      forward.end(recorded.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    steer: (...more) => rules.push(...more),
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
