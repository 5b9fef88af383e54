/**
 * Debian's redis-server and haproxy, started by a test on loopback and
 * stopped by it: each on a free port, in the foreground, with nothing
 * written to disk (no RDB, no AOF). Every wait is bounded.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const START_MS = 10_000;

/** A port free on 127.0.0.1 right now (the kernel's pick, released for the caller). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Whether a TCP connection to the port is accepted. */
async function accepts(port: number): Promise<boolean> {
  const { connect } = await import("node:net");
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Resolves once the port accepts connections; rejects after a bound, or when the process exits first. */
export async function waitForPort(port: number, child: ChildProcess, what: string, ms = START_MS): Promise<void> {
  const deadline = Date.now() + ms;
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}:\n${output}`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not listen on ${port} within ${ms} ms:\n${output}`);
}

/** Stops a process (SIGTERM, then SIGKILL after a bound) and waits for it to exit. */
export async function stop(child: ChildProcess, ms = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), ms);
  await exited;
  clearTimeout(timer);
}

export interface Daemon {
  readonly port: number;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** Debian's redis-server on a free loopback port, nothing saved. */
export async function startRedis(): Promise<Daemon> {
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "yes"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  await waitForPort(port, child, "redis-server");
  return { port, process: child, stop: () => stop(child) };
}

/**
 * Debian's haproxy on a free loopback port, round-robin over the backends'
 * loopback ports, as an HTTP proxy. Each backend takes at most `maxconn`
 * requests at once and haproxy queues the rest, so a burst never overflows
 * a backend's listen queue. `keepAlive` false (the tests') closes every
 * connection after its response, so no client ever reuses a connection
 * haproxy is closing.
 */
export async function startHaproxy(backends: readonly number[], options: { keepAlive?: boolean; maxconn?: number } = {}): Promise<Daemon> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "toolc-haproxy-"));
  const config = join(dir, "haproxy.cfg");
  writeFileSync(
    config,
    [
      "global",
      "  maxconn 4096",
      "defaults",
      "  mode http",
      "  timeout connect 2s",
      "  timeout client 300s",
      "  timeout server 120s",
      "  timeout queue 300s",
      "  timeout check 10s",
      "  timeout http-keep-alive 60s",
      options.keepAlive === true ? "  option http-keep-alive" : "  option httpclose",
      // A request whose connection a stopped backend refused goes to the other one; one that reached a backend is never sent twice.
      "  retries 3",
      "  option redispatch 1",
      "  retry-on conn-failure",
      `frontend mcp`,
      `  bind 127.0.0.1:${port}`,
      "  default_backend instances",
      "backend instances",
      "  balance roundrobin",
      // An instance that is draining (SIGTERM) answers 503 here and gets no new request; it closes its listener only after.
      "  option httpchk GET /healthz",
      "  http-check expect status 200",
      ...backends.map((backend, i) => `  server instance${i + 1} 127.0.0.1:${backend} maxconn ${options.maxconn ?? 64} check inter 1000 fall 2 rise 1`),
      "",
    ].join("\n"),
  );
  const child = spawn("haproxy", ["-db", "-f", config], { stdio: ["ignore", "pipe", "pipe"] });
  await waitForPort(port, child, "haproxy");
  return {
    port,
    process: child,
    stop: async () => {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
