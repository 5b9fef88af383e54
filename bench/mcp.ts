/** Start-up to the first tools/list answer, and tools/call latency, over stdio. */
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { compareAsync, median } from "./lib/measure.js";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
};

/** ms from spawning `node script` to the tools/list response; also checks how many tools it listed. */
function startupOnce(script: string, cwd: string, expectTools: number): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [script], { cwd, stdio: ["pipe", "pipe", "inherit"] });
    let buffer = "";
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (message.id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
        } else if (message.id === 2) {
          const ms = performance.now() - t0;
          child.kill();
          const listed = message.result?.tools?.length;
          if (listed !== expectTools) reject(new Error(`${script} listed ${listed} tools, expected ${expectTools}`));
          else resolvePromise(ms);
        }
      }
    });
    child.on("error", reject);
    send(INIT);
  });
}

/** Median start-up ms per server, interleaved over `rounds` (after one warm-up each, for the disk cache). */
export async function benchStartup(servers: Record<string, { script: string; tools: number }>, cwd: string, rounds = 7): Promise<Record<string, number>> {
  for (const s of Object.values(servers)) await startupOnce(s.script, cwd, s.tools);
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(servers).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) for (const [name, s] of Object.entries(servers)) samples[name].push(await startupOnce(s.script, cwd, s.tools));
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

async function connect(script: string, cwd: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [script], cwd, stderr: "inherit" }));
  return client;
}

/** Median tools/call ms per server for the same call, interleaved. */
export async function benchRoundTrip(
  servers: Record<string, string>,
  cwd: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<Record<string, number>> {
  const clients = Object.fromEntries(await Promise.all(Object.entries(servers).map(async ([k, s]) => [k, await connect(s, cwd)] as const)));
  try {
    const candidates = Object.fromEntries(
      Object.entries(clients).map(([k, c]) => [
        k,
        async () => {
          const r = await c.callTool({ name: tool, arguments: args });
          if (r.isError) throw new Error(`${k}: ${JSON.stringify(r.content)}`);
        },
      ]),
    );
    return await compareAsync(candidates, { warmup: 100, rounds: 400 });
  } finally {
    await Promise.all(Object.values(clients).map((c) => c.close()));
  }
}
