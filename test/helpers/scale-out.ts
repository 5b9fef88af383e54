/**
 * A scale-out deployment on loopback, from real parts: a generated project
 * with one confirmed tool (wipe_record), one read tool (ping) and one whose
 * contract declares a rate limit (quota: 10 calls a minute), served by
 * instances that are separate Node processes with the generated HTTP
 * handler, each holding a node-redis client to a shared Debian
 * redis-server, and Debian's haproxy round-robin in front of them
 * (daemons.ts). Each run of wipe_record's handler is one line in a shared
 * effects file, so a test counts effects, not answers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate, linkAllModules } from "../contract-tests/project.js";
import { stop, waitForPort } from "./daemons.js";

export const SECRET = "the scale-out test's shared secret, over 32 bytes";

const WIPE = `name: wipe_record
version: 1
title: Wipe record
description: Wipe one record. Each call is confirmed by the user.
effect: destructive
confirm: true
timeoutMs: 10000
input:
  type: object
  properties:
    id: { type: string, minLength: 1, maxLength: 64 }
  required: [id]
  additionalProperties: false
output:
  type: object
  properties:
    wiped: { type: string }
  required: [wiped]
`;

const PING = `name: ping
version: 1
title: Ping
description: Answers with its number.
effect: read
input:
  type: object
  properties:
    n: { type: integer }
  required: [n]
  additionalProperties: false
output:
  type: object
  properties:
    n: { type: integer }
  required: [n]
`;

/** A read tool whose contract declares its limit: 10 calls a minute, counted by the generated code in the shared store. */
const QUOTA = PING.replace("name: ping", "name: quota").replace("effect: read\n", "effect: read\nrateLimit: { calls: 10, windowSeconds: 60 }\n");

/**
 * One instance: the generated createHttpHandler with a redisStore, the
 * shared key, a rate limit per x-tenant header, and the operator's trace on
 * stderr. SIGTERM closes the listener and lets calls in flight finish.
 * STORE=memory serves with no Redis at all (the one-instance baseline).
 */
const INSTANCE = `import { createServer } from "node:http";
import { appendFileSync } from "node:fs";
import { createClient } from "redis";
import { createHttpHandler } from "./generated/http.js";
import { memoryStore, redisStore } from "./generated/runtime/store.js";

const env = process.env;
let client;
let store;
if (env.STORE === "memory") store = memoryStore();
else {
  client = createClient({ url: env.REDIS_URL, disableOfflineQueue: true, socket: { connectTimeout: 1000, reconnectStrategy: () => 100 } });
  client.on("error", () => {});
  await client.connect();
  store = redisStore(client, { prefix: "scale-out:", timeoutMs: 5000 });
}
const handlers = {
  wipe_record: (input) => {
    if (env.EFFECTS) appendFileSync(env.EFFECTS, JSON.stringify({ id: input.id, by: env.INSTANCE }) + "\\n");
    return { wiped: input.id };
  },
  ping: (input) => ({ n: input.n }),
  quota: (input) => ({ n: input.n }),
};
const options = {
  store,
  instances: Number(env.INSTANCES ?? "2"),
  confirm: env.SECRET === undefined ? {} : { secret: env.SECRET },
  rateLimit: { calls: Number(env.RATE ?? "20"), windowSeconds: 60, per: (request) => request.headers.get("x-tenant") ?? undefined },
  onTrace: (event) => {
    if (event.reason !== undefined) process.stderr.write("trace " + JSON.stringify({ reason: event.reason, code: event.code, tool: event.tool, error: String(event.error?.message ?? event.error) }) + "\\n");
  },
};
const mcp = createHttpHandler(handlers, options);
let draining = false;
// The load balancer's health check: 503 once draining, so it stops sending here before the listener closes.
const server = createServer((req, res) => (req.url === "/healthz" ? res.writeHead(draining ? 503 : 200).end() : mcp(req, res)));
server.listen(Number(env.PORT), "127.0.0.1", () => process.stdout.write("listening\\n"));
process.on("SIGTERM", () => {
  draining = true;
  setTimeout(() => {
    server.close(() => {
      Promise.resolve(client?.quit()).catch(() => {}).finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  }, Number(env.DRAIN_MS ?? "4000"));
});
`;

/** The generated project, in a temp folder with toolc's node_modules linked (redis among them). */
export async function scaleOutProject(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "toolc-scale-out-"));
  mkdirSync(join(dir, "definitions"));
  writeFileSync(join(dir, "definitions", "wipe_record.yaml"), WIPE);
  writeFileSync(join(dir, "definitions", "ping.yaml"), PING);
  writeFileSync(join(dir, "definitions", "quota.yaml"), QUOTA);
  writeFileSync(join(dir, "toolc.config.yaml"), "definitions: definitions\nout: generated\nmcp: { sdk: 2 }\nproviders: false\n");
  const dependencies = { "@modelcontextprotocol/server": "*", "@modelcontextprotocol/node": "*", redis: "*" };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "scale-out", private: true, type: "module", dependencies }));
  linkAllModules(dir);
  await generate(dir);
  writeFileSync(join(dir, "instance.mts"), INSTANCE);
  return dir;
}

export interface Instance {
  readonly name: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** What the instance wrote to stderr: the operator's trace lines among it. */
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts one instance on `port` and waits until it listens. */
export async function startInstance(dir: string, name: string, port: number, env: Record<string, string | undefined>): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", "instance.mts"], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), INSTANCE: name, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await waitForPort(port, child, `instance ${name}`, 60_000);
  return { name, port, process: child, stderr: () => stderr, stop: () => stop(child) };
}

/** The effects so far: one `{ id, by }` a run of wipe_record's handler. */
export function effects(file: string): { id: string; by: string }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { id: string; by: string });
}
