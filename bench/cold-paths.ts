/**
 * Cold paths at API scale (#42): N synthetic tools, each with input and
 * output schemas of its own (bench/lib/varied.ts, drawn from a seed, so no
 * two tools share a validator as they would not in a hand-written server),
 * served over stdio by
 * toolc's generated server and by the SDK's `McpServer` with zod, on the same
 * SDK line, in fresh processes, interleaved. Per process: start-up to the
 * first tools/list answer, the first call of every tool (each tool once, one
 * after the other: the cold path, where a tool's code is loaded or compiled
 * on its first call), the same calls again (warm), then the process's memory
 * with every tool warm (RSS and heapUsed after a full collection).
 *
 * The client speaks JSON-RPC lines itself, so no client library's cost is in
 * the figures; a preloaded probe (`--import`) reports memory on SIGUSR2, the
 * same for both servers.
 *
 * Alone: npx tsx bench/cold-paths.ts [tools]   (2,000 by default)
 * In process, on projects it kept: npx tsx bench/cold-paths.ts --in-process <project>…
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median } from "./lib/measure.js";
import { compileGenerated, tempProject, toolc } from "./lib/project.js";
import { type SdkLine, writeVariedServers } from "./lib/servers.js";
import { VARIED_SEED, variedResults, variedZodModule, writeVariedDefinitions } from "./lib/varied.js";

export interface ColdPathFigures {
  /** ms from spawn to the tools/list answer. */
  readonly startupMs: number;
  /** The server process's CPU ms (user + system) for the same spans: on a shared machine, the figures that compare. */
  readonly startupCpuMs: number;
  readonly firstCallsCpuMs: number;
  /** ms to call every tool once, in a process that has called none. */
  readonly firstCallsMs: number;
  /** ms to call every tool once more. */
  readonly warmCallsMs: number;
  /** The server's CPU ms for the same: what a call costs once nothing is left to load or compile. */
  readonly warmCallsCpuMs: number;
  /** bytes, after every tool was called and a full collection. */
  readonly rss: number;
  readonly heapUsed: number;
}

const PROBE = `process.on("SIGUSR2", () => {
  globalThis.gc?.();
  globalThis.gc?.();
  process.stderr.write("MEMORY " + JSON.stringify(process.memoryUsage()) + "\\n");
});
`;

/**
 * In process, without the SDK or stdio: `execute` of every tool once (the
 * cold path), then again, the process's own CPU time for each, and heapUsed
 * at the end. What the generated code alone costs on a first call; run on
 * copies of a project (a variant of its chunks/, or the same definitions
 * built by another toolc) it compares them with less noise than the servers.
 */
const IN_PROCESS = `import { readFileSync } from "node:fs";
const read = (name) => JSON.parse(readFileSync(new URL("./" + name, import.meta.url), "utf8"));
const results = read("varied-results.json");
const calls = read("varied-calls.json");
const { contracts, execute } = await import("./js/index.js");
const handlers = Object.fromEntries(Object.keys(contracts).map((name) => [name, async () => results[name]]));
const cpu = (since) => { const u = process.cpuUsage(since); return (u.user + u.system) / 1000; };
const pass = async () => {
  const t0 = process.cpuUsage();
  for (const { name, arguments: args } of calls) {
    const result = await execute(name, args, handlers);
    if (!result.ok) throw new Error(name + ": " + JSON.stringify(result).slice(0, 500));
  }
  return cpu(t0);
};
const firstCallsCpuMs = await pass();
const warmCallsCpuMs = await pass();
console.log(JSON.stringify({ firstCallsCpuMs, warmCallsCpuMs, heapUsed: process.memoryUsage().heapUsed }));
`;

/** What one in-process run measured (see IN_PROCESS). */
export interface InProcessFigures {
  readonly firstCallsCpuMs: number;
  readonly warmCallsCpuMs: number;
  readonly heapUsed: number;
}

/** `rounds` in-process runs of each project folder (made by coldPathProject), interleaved: each folder's runs in order. */
export function benchInProcess(projects: readonly string[], rounds = 5): InProcessFigures[][] {
  const runs: InProcessFigures[][] = projects.map(() => []);
  for (let r = 0; r < rounds; r++)
    projects.forEach((dir, i) => {
      const out = execFileSync(process.execPath, [join(dir, "in-process.mjs")], { encoding: "utf8", maxBuffer: 1 << 24 });
      runs[i]?.push(JSON.parse(out) as InProcessFigures);
    });
  return runs;
}

/** One tool's call: its name and a valid input for it. */
export interface ToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** A process's CPU ms so far (user + system, from /proc; NaN where there is no /proc). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
const CLOCK_TICKS = 100;

/** One fresh server process: start-up, every tool called once, then again, then its memory. */
function runOnce(script: string, probe: string, calls: readonly ToolCall[]): Promise<ColdPathFigures> {
  const tools = calls.length;
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ["--expose-gc", "--import", probe, script], { cwd: join(script, ".."), stdio: ["pipe", "pipe", "pipe"] });
    const send = (m: object): boolean => child.stdin.write(`${JSON.stringify(m)}\n`);
    const marks: number[] = [];
    const cpu: number[] = [];
    let next = 0; // the next tool to call, over both passes
    let stdout = "";
    let stderr = "";
    const call = (): void => {
      const { name, arguments: args } = calls[next % tools] as ToolCall;
      send({ jsonrpc: "2.0", id: 100 + next, method: "tools/call", params: { name, arguments: args } });
    };
    const fail = (error: Error): void => {
      child.kill();
      reject(error);
    };
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /MEMORY (\{.*\})\n/.exec(stderr);
      if (m === null) return;
      const memory = JSON.parse(m[1]) as NodeJS.MemoryUsage;
      child.kill();
      resolvePromise({
        startupMs: marks[0] - t0,
        startupCpuMs: cpu[0],
        firstCallsCpuMs: cpu[1] - cpu[0],
        firstCallsMs: marks[1] - marks[0],
        warmCallsMs: marks[2] - marks[1],
        warmCallsCpuMs: cpu[2] - cpu[1],
        rss: memory.rss,
        heapUsed: memory.heapUsed,
      });
    });
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      for (let nl = stdout.indexOf("\n"); nl >= 0; nl = stdout.indexOf("\n")) {
        const message = JSON.parse(stdout.slice(0, nl));
        stdout = stdout.slice(nl + 1);
        if (message.id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
        } else if (message.id === 2) {
          marks.push(performance.now());
          cpu.push(cpuMs(child.pid));
          const listed = message.result?.tools?.length;
          if (listed !== tools) return fail(new Error(`${script} listed ${listed} tools, expected ${tools}`));
          call();
        } else if (message.id === 100 + next) {
          if (message.error !== undefined || message.result?.isError)
            return fail(new Error(`${script}: call ${next} failed: ${JSON.stringify(message).slice(0, 500)}`));
          next++;
          if (next === tools || next === 2 * tools) {
            marks.push(performance.now());
            cpu.push(cpuMs(child.pid));
          }
          if (next < 2 * tools) call();
          else child.kill("SIGUSR2");
        }
      }
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal !== "SIGTERM" && signal !== "SIGUSR2") reject(new Error(`${script} exited (${code ?? signal}) early:\n${stderr}`));
    });
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    });
  });
}

/**
 * A compiled project of `tools` synthetic tools, each with schemas of its own
 * (bench/lib/varied.ts, drawn from `seed`), with both servers on one SDK
 * line; returns the two scripts, the probe and each tool's call.
 */
export function coldPathProject(tools: number, line: SdkLine, seed = VARIED_SEED): { toolc: string; zod: string; probe: string; calls: ToolCall[] } {
  const dir = tempProject(`cold-${tools}-sdk${line}`);
  const drawn = writeVariedDefinitions(join(dir, "definitions"), tools, seed);
  toolc(dir, ["generate", "--definitions", "definitions", "--out", "generated", "--mcp-sdk", String(line)], { TOOLC_NO_CACHE: "1" });
  compileGenerated(dir);
  const probe = join(dir, "memory-probe.mjs");
  writeFileSync(probe, PROBE);
  writeFileSync(join(dir, "varied-results.json"), variedResults(drawn));
  writeFileSync(join(dir, "varied-zod-tools.mjs"), variedZodModule(drawn));
  const calls = drawn.map((t) => ({ name: t.name, arguments: t.arguments }));
  writeFileSync(join(dir, "varied-calls.json"), JSON.stringify(calls));
  writeFileSync(join(dir, "in-process.mjs"), IN_PROCESS);
  return { ...writeVariedServers(dir, "varied-results.json", "varied-zod-tools.mjs", line), probe, calls };
}

/** Median of each figure per server over `rounds` fresh processes each, interleaved (after one warm-up each, for the disk cache). */
export async function benchColdPaths(
  servers: Readonly<Record<string, string>>,
  probe: string,
  calls: readonly ToolCall[],
  rounds = 3,
): Promise<Record<string, ColdPathFigures>> {
  for (const script of Object.values(servers)) await runOnce(script, probe, calls);
  const samples: Record<string, ColdPathFigures[]> = Object.fromEntries(Object.keys(servers).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) for (const [name, script] of Object.entries(servers)) samples[name].push(await runOnce(script, probe, calls));
  const pick = (list: ColdPathFigures[], key: keyof ColdPathFigures): number => median(list.map((f) => f[key]));
  return Object.fromEntries(
    Object.entries(samples).map(([name, list]) => [
      name,
      {
        startupMs: pick(list, "startupMs"),
        startupCpuMs: pick(list, "startupCpuMs"),
        firstCallsCpuMs: pick(list, "firstCallsCpuMs"),
        firstCallsMs: pick(list, "firstCallsMs"),
        warmCallsMs: pick(list, "warmCallsMs"),
        warmCallsCpuMs: pick(list, "warmCallsCpuMs"),
        rss: pick(list, "rss"),
        heapUsed: pick(list, "heapUsed"),
      },
    ]),
  );
}

const x = (n: number): string => `${n.toFixed(2)}×`;
const mb = (bytes: number): string => (bytes / 1048576).toFixed(1);

/** The section's table: each figure for both servers, and McpServer + zod's over toolc's or toolc's over it, as the target reads. */
export function printColdPaths(print: (line?: string) => void, tools: number, f: Record<"toolc" | "zod", ColdPathFigures>): void {
  print(`| ${tools} tools, SDK 2.x | toolc | McpServer + zod | ratio | target |`);
  print("| --- | ---: | ---: | ---: | --- |");
  const within = (ratio: number): string => (ratio <= 1.2 ? "met" : "NOT met");
  const startup = f.zod.startupMs / f.toolc.startupMs;
  print(
    `| start-up to tools/list (ms) | ${f.toolc.startupMs.toFixed(0)} | ${f.zod.startupMs.toFixed(0)} | zod / toolc ${x(startup)} | faster: ${startup > 1 ? "met" : "NOT met"} |`,
  );
  print(
    `| start-up, the server's CPU (ms) | ${f.toolc.startupCpuMs.toFixed(0)} | ${f.zod.startupCpuMs.toFixed(0)} | zod / toolc ${x(f.zod.startupCpuMs / f.toolc.startupCpuMs)} | |`,
  );
  const first = f.toolc.firstCallsMs / f.zod.firstCallsMs;
  print(
    `| first call of every tool (ms, all ${tools}) | ${f.toolc.firstCallsMs.toFixed(0)} | ${f.zod.firstCallsMs.toFixed(0)} | toolc / zod ${x(first)} | ≤1.2×: ${within(first)} |`,
  );
  const firstCpu = f.toolc.firstCallsCpuMs / f.zod.firstCallsCpuMs;
  print(
    `| first call of every tool, the server's CPU (ms) | ${f.toolc.firstCallsCpuMs.toFixed(0)} | ${f.zod.firstCallsCpuMs.toFixed(0)} | toolc / zod ${x(firstCpu)} | ≤1.2×: ${within(firstCpu)} |`,
  );
  print(
    `| every tool again, warm (ms) | ${f.toolc.warmCallsMs.toFixed(0)} | ${f.zod.warmCallsMs.toFixed(0)} | toolc / zod ${x(f.toolc.warmCallsMs / f.zod.warmCallsMs)} | |`,
  );
  print(
    `| every tool again, warm, the server's CPU (ms) | ${f.toolc.warmCallsCpuMs.toFixed(0)} | ${f.zod.warmCallsCpuMs.toFixed(0)} | toolc / zod ${x(f.toolc.warmCallsCpuMs / f.zod.warmCallsCpuMs)} | |`,
  );
  const rss = f.toolc.rss / f.zod.rss;
  print(`| RSS, every tool warm (MB, after a full GC) | ${mb(f.toolc.rss)} | ${mb(f.zod.rss)} | toolc / zod ${x(rss)} | ≤1.2×: ${within(rss)} |`);
  const heap = f.toolc.heapUsed / f.zod.heapUsed;
  print(
    `| heapUsed, every tool warm (MB, after a full GC) | ${mb(f.toolc.heapUsed)} | ${mb(f.zod.heapUsed)} | toolc / zod ${x(heap)} | ≤1.2×: ${within(heap)} |`,
  );
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === "--in-process") {
  // npx tsx bench/cold-paths.ts --in-process <project> <project>…: the in-process figures of kept projects, interleaved.
  const projects = process.argv.slice(3);
  const runs = benchInProcess(projects);
  projects.forEach((dir, i) => {
    const list = runs[i] ?? [];
    const pick = (key: keyof InProcessFigures): number => median(list.map((f) => f[key]));
    console.log(
      `${dir}: first calls ${pick("firstCallsCpuMs").toFixed(0)} ms CPU (${list.map((f) => f.firstCallsCpuMs.toFixed(0)).join(", ")}), warm ${pick("warmCallsCpuMs").toFixed(0)} ms, heapUsed ${mb(pick("heapUsed"))} MB`,
    );
  });
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const tools = Number(process.argv[2] ?? 2000);
  const project = coldPathProject(tools, 2);
  const figures = await benchColdPaths({ toolc: project.toolc, zod: project.zod }, project.probe, project.calls);
  printColdPaths((line = "") => console.log(line), tools, figures as Record<"toolc" | "zod", ColdPathFigures>);
  console.log(`\n(project: ${join(project.toolc, "..")})`);
}
