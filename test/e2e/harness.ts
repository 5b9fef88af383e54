/**
 * One interface over the chaos server, wherever it runs: in process over
 * InMemoryTransport, as a spawned stdio process, or as a spawned HTTP server.
 * `track` reports the handler calls a piece of work caused, and `serverLog`
 * is everything the server traced, so the same tests run against all three.
 */
import type { Client } from "@modelcontextprotocol/client";
import { createServer } from "../../generated/index.js";
import { createChaosHandlers, traceLine, type CallRecord } from "./fixtures/chaos-handlers.js";
import { call, chaosServer, connectHttp, connectInMemory, connectStdio, spawnHttp, type LogBuffer } from "./helpers.js";

export interface Harness {
  client: Client;
  /** Runs `work` and returns the handler calls it caused, in order. */
  track<T>(work: () => Promise<T>): Promise<{ result: T; calls: CallRecord[] }>;
  /** All trace output the server produced so far. */
  serverLog(): string;
  close(): Promise<void>;
}

export async function inMemoryHarness(): Promise<Harness> {
  const calls: CallRecord[] = [];
  const traces: string[] = [];
  const server = createServer(createChaosHandlers((c) => calls.push(c)), { onTrace: (e) => traces.push(traceLine(e)) });
  const client = await connectInMemory(server);
  return {
    client,
    async track(work) {
      const start = calls.length;
      const result = await work();
      return { result, calls: calls.slice(start) };
    },
    serverLog: () => traces.join("\n"),
    close: async () => { await client.close(); await server.close(); },
  };
}

/**
 * Out of process, call lines arrive on stderr independently of responses on
 * stdout or HTTP. After the work, a marker call is made; the server handles
 * requests in order, so once the marker's line is in the log every earlier
 * call's line is too.
 */
function remoteTracker(client: Client, log: LogBuffer): Harness["track"] {
  let markers = 0;
  return async (work) => {
    const before = log.lines().length;
    const result = await work();
    const marker = `cus_marker_${++markers}`;
    await call(client, "get_order", { customerId: marker });
    await log.waitFor(new RegExp(`^call .*"${marker}"`, "m"));
    const lines = log.lines().slice(before);
    const calls = lines
      .filter((l) => l.startsWith("call "))
      .map((l) => JSON.parse(l.slice("call ".length)) as CallRecord);
    return { result, calls: calls.filter((c) => c.seen.customerId !== marker) };
  };
}

export async function stdioHarness(): Promise<Harness> {
  const { client, log } = await connectStdio(chaosServer);
  return {
    client,
    track: remoteTracker(client, log),
    serverLog: () => log.text,
    // Closing the stdio transport ends the child process.
    close: () => client.close(),
  };
}

export async function httpHarness(): Promise<Harness> {
  const proc = await spawnHttp(chaosServer, ["--http"]);
  const client = await connectHttp(proc.url);
  return {
    client,
    track: remoteTracker(client, proc.log),
    serverLog: () => proc.log.text,
    close: async () => { await client.close(); await proc.stop(); },
  };
}
