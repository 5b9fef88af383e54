/**
 * All benchmarks in one run, printed as ratios with the versions used.
 * Run: npm run bench   (BENCH_QUICK=1 for a shorter run with fewer tools)
 */
import { readFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { benchAdversarial } from "./adversarial.js";
import { benchRecursiveUnions } from "./recursive-unions.js";
import { benchRedaction } from "./redaction.js";
import { benchScaleOut } from "./scale-out.js";
import { benchUnreadablePatterns } from "./unreadable-patterns.js";
import { benchCatalog } from "./catalog.js";
import { benchCodegen } from "./codegen.js";
import { benchExecutorVsZod } from "./executor-vs-zod.js";
import { benchRoundTrip, benchStartup } from "./mcp.js";
import { benchColdPaths, coldPathProject, printColdPaths } from "./cold-paths.js";
import { compileGenerated, ROOT, tempProject, toolc } from "./lib/project.js";
import { GET_ORDER_OUTPUT, type SdkLine, SYNTHETIC_OUTPUT, writeFloorServer, writeGeneratedServer, writeZodServer } from "./lib/servers.js";
import { writeSyntheticDefinitions } from "./lib/synthetic.js";
import { cpSync } from "node:fs";
import { benchOpenApiImport, PEER_VERSION } from "./openapi-import.js";
import { benchWebRuntimes } from "./web-runtimes.js";
import { benchExecutor, benchValidators, EXECUTOR_OUTPUTS, formatSanity } from "./validators.js";
import { printLoopGuard } from "./loop-guard.js";

const QUICK = process.env.BENCH_QUICK === "1";
const SDK_LINES: readonly SdkLine[] = [1, 2];
const version = (pkg: string): string => (JSON.parse(readFileSync(join(ROOT, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
const x = (n: number): string => `${n >= 10 ? n.toFixed(0) : n.toFixed(1)}×`;
const row = (cells: string[]): string => `| ${cells.join(" | ")} |`;
const lines: string[] = [];
const print = (line = ""): void => void (console.log(line), lines.push(line));
const status = (ok: boolean): string => (ok ? "met" : "NOT met");

async function validatorsSection(dir: string): Promise<void> {
  const js = join(dir, "js");
  const gen = await import(join(js, "validators/get_order.js"));
  const { contracts, execute } = await import(join(js, "index.js"));
  const { formats } = await import(join(js, "runtime/formats.js"));
  print(`\n${formatSanity(gen)}\n`);
  print("### Validators (ns per call, median; ratio = other / toolc)\n");
  print(row(["case", "toolc ns", "zod 4 safeParse", "Ajv at run time", "TypeBox compiled", "≥5× zod"]));
  print(row(["---", "---:", "---:", "---:", "---:", "---"]));
  for (const r of benchValidators(gen, contracts.get_order, formats)) {
    const t = r.ns.toolc;
    print(row([r.name, t.toFixed(0), x(r.ns.zod / t), x(r.ns["ajv runtime"] / t), x(r.ns.typebox / t), status(r.ns.zod / t >= 5)]));
  }
  print("\n### Executor: execute with a trivial handler, against bare input + output validation (ns per call, median)\n");
  print(row(["handler output", "execute", "bare validation", "added by the executor", "≤300 ns"]));
  print(row(["---", "---:", "---:", "---:", "---"]));
  for (const [label, output] of Object.entries(EXECUTOR_OUTPUTS)) {
    const e = await benchExecutor(execute, gen, output);
    print(
      row([
        label,
        e.execute.toFixed(0),
        e.bare.toFixed(0),
        `${(e.execute - e.bare).toFixed(0)} (${x(e.execute / e.bare)} of bare)`,
        status(e.execute - e.bare <= 300),
      ]),
    );
  }
  print("\n### Executor against a hand-written zod executor (list_invoices, 20 invoices with date-times; µs per call, median)\n");
  print(row(["call", "toolc execute", "zod executor", "zod / toolc"]));
  print(row(["---", "---:", "---:", "---:"]));
  for (const r of await benchExecutorVsZod(execute)) print(row([r.name, r.toolc.toFixed(2), r.zod.toFixed(2), x(r.zod / r.toolc)]));
}

/** A project with `tools` synthetic contracts (0: the bench contracts) generated for one SDK line and compiled to JS. */
function sdkProject(label: string, line: SdkLine, tools: number): string {
  const dir = tempProject(`${label}-sdk${line}`);
  if (tools === 0) cpSync(join(ROOT, "bench/definitions"), join(dir, "definitions"), { recursive: true });
  else writeSyntheticDefinitions(join(dir, "definitions"), tools);
  toolc(dir, ["generate", "--definitions", "definitions", "--out", "generated", "--mcp-sdk", String(line)], { TOOLC_NO_CACHE: "1" });
  compileGenerated(dir);
  return dir;
}

/**
 * Start-up and round trip, per MCP SDK line: toolc's server against
 * McpServer + zod and the floor on the same line, since the lines differ
 * in their own costs (see bench/lib/servers.ts).
 */
async function mcpSection(tools: number, getOrderDirs: Readonly<Record<SdkLine, string>>): Promise<void> {
  const startup: Record<string, { script: string; tools: number }> = {};
  for (const line of SDK_LINES) {
    const dir = sdkProject("startup", line, tools);
    startup[`toolc${line}`] = { script: writeGeneratedServer(dir, SYNTHETIC_OUTPUT, line), tools };
    startup[`zod${line}`] = { script: writeZodServer(dir, tools, SYNTHETIC_OUTPUT, line), tools };
    startup[`floor${line}`] = { script: writeFloorServer(dir, line), tools: 0 };
  }
  const s = await benchStartup(startup, tmpdir());
  print(`\n### Start-up to the first tools/list answer, ${tools} tools (ms, median; each server against the others on its own SDK line)\n`);
  print(row(["SDK", "server", "ms", "vs floor", "vs toolc"]));
  print(row(["---", "---", "---:", "---:", "---:"]));
  for (const line of SDK_LINES) {
    const [toolcMs, zodMs, floorMs] = [s[`toolc${line}`], s[`zod${line}`], s[`floor${line}`]];
    for (const [ms, label] of [
      [toolcMs, "toolc generated server"],
      [zodMs, "McpServer + zod"],
      [floorMs, "floor: node + SDK + empty Server"],
    ] as const)
      print(row([`${line}.x`, label, ms.toFixed(0), x(ms / floorMs), x(ms / toolcMs)]));
  }
  print("");
  for (const line of SDK_LINES)
    print(
      `SDK ${line}.x: within 1.3× of the floor: ${status(s[`toolc${line}`] / s[`floor${line}`] <= 1.3)}; faster than McpServer + zod: ${status(s[`toolc${line}`] < s[`zod${line}`])}`,
    );
  const roundTrip: Record<string, string> = {};
  for (const line of SDK_LINES) {
    roundTrip[`toolc${line}`] = writeGeneratedServer(getOrderDirs[line], GET_ORDER_OUTPUT, line);
    roundTrip[`zod${line}`] = writeZodServer(getOrderDirs[line], 0, GET_ORDER_OUTPUT, line);
  }
  const rt = await benchRoundTrip(roundTrip, tmpdir(), "get_order", { customerId: "cus_1" });
  print(`\n### tools/call round trip over stdio (get_order; ms, median; the same SDK 1.x client for all)\n`);
  print(row(["SDK", "toolc ms", "McpServer + zod ms", "zod / toolc", "no slower"]));
  print(row(["---", "---:", "---:", "---:", "---"]));
  for (const line of SDK_LINES) {
    const [t, z] = [rt[`toolc${line}`], rt[`zod${line}`]];
    print(row([`${line}.x`, t.toFixed(3), z.toFixed(3), x(z / t), status(t <= z * 1.02)]));
  }
}

/** Start-up, the first call of every tool and warm memory at API scale, against McpServer + zod (SDK 2.x; bench/cold-paths.ts). */
async function coldPathSection(tools: number): Promise<void> {
  const project = coldPathProject(tools, 2);
  const f = await benchColdPaths({ toolc: project.toolc, zod: project.zod }, project.probe, project.calls);
  print(
    `\n### Cold paths at ${tools} tools, each with schemas of its own: start-up, the first call of every tool, memory with every tool warm (SDK 2.x; median of 3 fresh processes each)\n`,
  );
  printColdPaths(print, tools, { toolc: f.toolc, zod: f.zod });
}

async function codegenSection(tools: number): Promise<void> {
  const c = await benchCodegen(tools, QUICK ? 50 : 200);
  print(`\n### Codegen, ${c.tools} synthetic tools\n`);
  print(row(["run", "s", "target", "status"]));
  print(row(["---", "---:", "---", "---"]));
  print(row(["full generate (cold cache, empty output)", (c.fullMs / 1000).toFixed(2), "≤10 s", status(c.fullMs <= 10_000)]));
  print(row(["no-op generate", (c.noopMs / 1000).toFixed(2), "≤1 s", status(c.noopMs <= 1000)]));
  print(row(["one contract edited", (c.editMs / 1000).toFixed(2), "≤2 s", status(c.editMs <= 2000)]));
  print(
    row([
      `json-schema-to-typescript, types only (timed on ${c.peerSample} tools, scaled)`,
      (c.peerTypesMs / 1000).toFixed(2),
      "peer",
      `toolc full / peer = ${x(c.fullMs / c.peerTypesMs)}`,
    ]),
  );
  print(
    `\nOutput: ${(c.outputBytesPerTool / 1024).toFixed(1)} KB per tool in all; validator code ${(c.validatorBytesPerTool / 1024).toFixed(1)} KB per tool (target ≤4 KB: ${status(c.validatorBytesPerTool <= 4096)}).`,
  );
}

function openApiImportSection(): void {
  print(
    "\n### toolc import openapi (cold process into an empty project; s, median of 3; parser alone = swagger-parser bundle + validate in its own process)\n",
  );
  print(row(["description", "operations", "import s", "parser alone s", "import / parser", "≤10 s"]));
  print(row(["---", "---:", "---:", "---:", "---:", "---"]));
  const results = benchOpenApiImport(QUICK ? 1 : 3, !QUICK);
  for (const r of results) {
    print(
      row([
        r.label,
        String(r.operations),
        (r.importMs / 1000).toFixed(2),
        (r.parserMs / 1000).toFixed(2),
        x(r.importMs / r.parserMs),
        r.operations === 1000 ? status(r.importMs <= 10_000) : "—",
      ]),
    );
  }
  for (const r of results.filter((r) => r.peerMs !== undefined))
    print(
      `\n${r.label}, side by side in this run: toolc import ${(r.importMs / 1000).toFixed(2)} s (contracts and handlers), openapi-mcp-generator ${PEER_VERSION} ${(r.peerMs! / 1000).toFixed(2)} s (its server project); toolc / openapi-mcp-generator = ${x(r.importMs / r.peerMs!)}.`,
    );
}

async function catalogSection(): Promise<void> {
  const c = await benchCatalog(QUICK ? 5 : 15);
  print("\n### Tool catalog in Chromium, from file:// (ms from navigation start to the end of the load event, median of fresh tabs)\n");
  if (typeof c === "string") return void print(c);
  const floor = c.pages[0]?.loadMs ?? 1;
  print(row(["page", "tools", "KB", "load ms", "vs floor", "under 1 s"]));
  print(row(["---", "---:", "---:", "---:", "---:", "---"]));
  for (const p of c.pages) print(row([p.label, String(p.tools), p.kb.toFixed(0), p.loadMs.toFixed(1), x(p.loadMs / floor), status(p.loadMs < 1000)]));
  print(
    `\nOne search keystroke on the 117-tool index: ${c.keystrokeMs.toFixed(2)} ms (median). \`toolc docs\` for the 117 tools, one run: ${(c.docsMs / 1000).toFixed(2)} s.`,
  );
}

async function main(): Promise<void> {
  const started = performance.now();
  const toolcVersion = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  print(`## toolc benchmarks\n`);
  print(
    `node ${process.version}, toolc ${toolcVersion}, playwright-core ${version("playwright-core")}, ajv ${version("ajv")}, ajv-formats ${version("ajv-formats")}, zod ${version("zod")}, typebox ${version("@sinclair/typebox")}, @modelcontextprotocol/sdk ${version("@modelcontextprotocol/sdk")}, json-schema-to-typescript ${version("json-schema-to-typescript")}, prettier ${version("prettier")}`,
  );
  print(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}; ${process.platform} ${process.arch}`);
  print(`reproduce: npm run bench${QUICK ? "   (BENCH_QUICK=1)" : ""}`);
  // The bench contracts for each SDK line; the validators and the executor are measured in the 2.x one (the default line).
  const getOrderDirs = { 1: sdkProject("get-order", 1, 0), 2: sdkProject("get-order", 2, 0) };
  await validatorsSection(getOrderDirs[2]);
  await printLoopGuard(print, QUICK);
  await mcpSection(QUICK ? 100 : 500, getOrderDirs);
  await coldPathSection(QUICK ? 200 : 2000);
  await codegenSection(QUICK ? 200 : 1000);
  openApiImportSection();
  await catalogSection();
  print("\n### The border on each runtime: the demo's get_order over Streamable HTTP, 2026-07-28 (test/web-runtimes)\n");
  await benchWebRuntimes(print);
  print("\n### Scale-out: haproxy and two instances against one instance, and the store's cost (docs/scaling.md)\n");
  await benchScaleOut(print, QUICK);
  print("\n### Adversarial inputs up to the 4 MB body cap (parse + copy + validate; best of 3)\n");
  benchAdversarial(print);
  print("\n### Redaction: a sensitive map of 1,000 to 100,000 values (ms, best of 3, 1 at 100,000; ratio = with x-sensitive / the same contract without)\n");
  await benchRedaction(print);
  print("\n### Recursive unions: time per KB against nesting depth (parse + copy + validate, ~128 KB bodies; best of 9)\n");
  benchRecursiveUnions(print);
  print("\n### Patterns the ReDoS checker cannot read as written (RegExp alone; toolc refuses them, TC035)\n");
  benchUnreadablePatterns(25, print);
  print(`\n(whole run ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

await main();
