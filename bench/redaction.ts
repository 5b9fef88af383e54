/**
 * What redaction costs a call that carries many sensitive values: a
 * contract with an `x-sensitive` map and no `maxProperties`, sent 1,000 to
 * 100,000 entries (100,000 is a 3.5 MB body). Each row is set against the
 * same call on the same contract without `x-sensitive`, so the ratio is what
 * redaction adds to parsing, copying and validating the input. The last rows
 * time a small call sent at the same moment as the big one over Streamable
 * HTTP: how long the big one keeps the event loop from it.
 *
 * The contracts go through toolc's own load and normalize phases and its Ajv
 * configuration, as the generated ones do.
 *
 * Run alone: npx tsx bench/redaction.ts
 */
import { createServer, request, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createAjv } from "../generator/ajv.js";
import type { ToolIR } from "../generator/ir.js";
import { loadDefinitionsFromTexts } from "../generator/load/index.js";
import { normalize } from "../generator/normalize/index.js";
import type { AnyToolContract } from "../generator/runtime/contract.js";
import { executeTool } from "../generator/runtime/executor.js";
import { createToolHttpHandler } from "../generator/runtime/http.js";
import { createToolServer } from "../generator/runtime/server.js";

const ENTRIES = [1_000, 10_000, 100_000];
const BAD_ENTRIES = 50;

function vaultYaml(name: string, sensitive: boolean): string {
  const mark = sensitive ? ", x-sensitive: true" : "";
  return `name: ${name}
version: 1
description: Stores tokens.
effect: read
input:
  type: object
  properties:
    tokens: { type: object, additionalProperties: { type: string, maxLength: 64${mark} } }
output: { type: object }
errors:
  REFUSED: { description: Refused. }
`;
}

function contractOf(tool: ToolIR): AnyToolContract {
  return {
    name: tool.name,
    version: tool.version,
    effect: tool.effect,
    idempotent: tool.idempotent,
    timeoutMs: 60_000,
    retry: { attempts: 1, backoffMs: 0, maxBackoffMs: 0, budgetMs: 0 },
    errors: { REFUSED: "Refused." },
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: tool.meta,
    sensitive: tool.sensitive,
    validators: {
      validateInput: createAjv({ applyDefaults: true }).compile(tool.inputSchema),
      validateOutput: createAjv({ applyDefaults: false }).compile(tool.outputSchema),
    },
  } as AnyToolContract;
}

function contracts(): { sensitive: AnyToolContract; plain: AnyToolContract } {
  const loaded = loadDefinitionsFromTexts([
    { source: "vault.yaml", display: "vault.yaml", text: vaultYaml("vault", true) },
    { source: "plain.yaml", display: "plain.yaml", text: vaultYaml("plain", false) },
  ]);
  const { ir } = normalize(loaded);
  const byName = new Map(ir.tools.map((t) => [t.name, contractOf(t)]));
  return { sensitive: byName.get("vault")!, plain: byName.get("plain")! };
}

/** `entries` tokens; with `bad`, that many of them too long, so the call is INVALID_INPUT with that many issues. */
function tokensBody(entries: number, bad = 0): string {
  const tokens: Record<string, string> = {};
  for (let i = 0; i < entries; i++) tokens[`k${i}`] = i < bad ? `sk_live_${i}_${"x".repeat(70)}` : `sk_live_${i}_${(i * 7919).toString(36)}abcdef`;
  return JSON.stringify({ tokens });
}

const refuse = (_input: unknown, ctx: { reject(reason: string, message: string): never }): never => ctx.reject("REFUSED", "The vault refused sk_live_17_.");

function bestOf(runs: number, work: () => Promise<unknown>): Promise<number> {
  return (async () => {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await work();
      best = Math.min(best, performance.now() - started);
    }
    return best;
  })();
}

async function executeMs(contract: AnyToolContract, body: string, runs: number): Promise<number> {
  return bestOf(runs, () => executeTool(contract, JSON.parse(body), refuse as never, { onTrace: () => {} }));
}

function post(port: number, body: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path: "/mcp", method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(performance.now() - started));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const callBody = (tool: string, args: string): string => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","arguments":${args}}}`;

/** ms until a one-token call sent together with a big one is answered. */
async function blockedMs(contract: AnyToolContract, big: string): Promise<number> {
  const served = { [contract.name]: contract };
  const handler = createToolHttpHandler(() => createToolServer(served, { [contract.name]: refuse } as never));
  const server: NodeServer = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const small = callBody(contract.name, tokensBody(1));
    await post(port, small);
    const [, smallMs] = await Promise.all([post(port, callBody(contract.name, big)), post(port, small)]);
    return smallMs;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const row = (cells: string[]): string => `| ${cells.join(" | ")} |`;
const ratio = (a: number, b: number): string => `${(a / b).toFixed(1)}×`;

export async function benchRedaction(print: (line: string) => void = console.log): Promise<void> {
  const { sensitive, plain } = contracts();
  print(row(["call", "x-sensitive ms", "without x-sensitive ms", "ratio"]));
  print(row(["---", "---:", "---:", "---:"]));
  for (const entries of ENTRIES) {
    const body = tokensBody(entries);
    const runs = entries >= 100_000 ? 1 : 3;
    const [s, p] = [await executeMs(sensitive, body, runs), await executeMs(plain, body, runs)];
    print(row([`${entries.toLocaleString("en")} sensitive values, REJECTED with a message`, s.toFixed(1), p.toFixed(1), ratio(s, p)]));
  }
  for (const entries of ENTRIES) {
    const body = tokensBody(entries, BAD_ENTRIES);
    const runs = entries >= 100_000 ? 1 : 3;
    const [s, p] = [await executeMs(sensitive, body, runs), await executeMs(plain, body, runs)];
    print(row([`${entries.toLocaleString("en")} sensitive values, INVALID_INPUT with ${BAD_ENTRIES} issues`, s.toFixed(1), p.toFixed(1), ratio(s, p)]));
  }
  const big = tokensBody(100_000, BAD_ENTRIES);
  const [s, p] = [await blockedMs(sensitive, big), await blockedMs(plain, big)];
  print(row([`HTTP: a small call sent with a ${(big.length / 1e6).toFixed(2)} MB invalid one waits`, s.toFixed(1), p.toFixed(1), ratio(s, p)]));
}

if (import.meta.url === `file://${process.argv[1]}`) await benchRedaction();
