/**
 * The "after" figures of docs/robustness.md's second attack pass, for the
 * rows the executor and the provider entry points close: how many handlers
 * run at once after a timeout, and how often a secret reaches a message, a
 * trace or a provider result in the shapes that used to leak it. Counts over
 * fixed inputs; one-off figures, not a benchmark. bench/second-pass-peers.ts
 * has the rows about servers and browsers, bench/redaction.ts the time rows.
 *
 * Run alone: npx tsx bench/second-pass-runtime.ts
 */
import fc from "fast-check";
import { TransientError } from "../generator/runtime/errors.js";
import { executeTool } from "../generator/runtime/executor.js";
import { runOpenAIToolCall } from "../generator/runtime/providers.js";
import type { TraceEvent } from "../generator/runtime/types.js";
import { containsString } from "../test/fuzz/harness.js";
import { defineContract } from "../test/runtime/fixtures.js";
import { contractsFromYaml, toolYaml } from "../test/runtime/yaml-contracts.js";

type Print = (line: string) => void;

export const CALLS = 200;
const SEED = 29;
/** Distinctive secrets, as the chaos suite draws them. */
export const secrets = (n: number): string[] => fc.sample(fc.stringMatching(/^[A-Za-z0-9]{8,30}$/), { numRuns: n, seed: SEED }).map((s) => `zQ${s}`);

/** The attack: a write with an idempotencyKey, a 100 ms timeout, and a check-then-insert handler that takes 150 ms. */
async function retryRow(print: Print): Promise<void> {
  const record = defineContract<{ requestId: string }, { requestId: string }, object>({
    name: "record",
    effect: "write",
    idempotencyKey: "requestId",
    timeoutMs: 100,
    retry: { attempts: 2, backoffMs: 1, maxBackoffMs: 1 },
    input: { type: "object", properties: { requestId: { type: "string" } }, required: ["requestId"], additionalProperties: false },
    output: { type: "object" },
  });
  const rows = new Map<string, number>();
  let running = 0;
  let most = 0;
  const result = await executeTool(record, { requestId: "req_1" }, async ({ requestId }) => {
    most = Math.max(most, ++running);
    const seen = rows.has(requestId);
    await new Promise((resolve) => setTimeout(resolve, 150));
    if (!seen) rows.set(requestId, (rows.get(requestId) ?? 0) + 1);
    running--;
    return {};
  });
  const code = result.ok ? "ok" : `${result.code}, effect ${result.effect}`;
  print(`| retry after a timeout | ${most} handler at once; the write applied ${rows.get("req_1") ?? 0} time; the call ${code} |`);
}

const ERRORS = "errors:\n  REFUSED: { description: Refused. }\n";

/** The three shapes that used to leak, as the unit test writes them, each with an input that holds `s` where it is sensitive. */
function sensitiveShapes(): Record<string, { contract: ReturnType<typeof contractsFromYaml>[string]; input: (s: string) => unknown }> {
  let deepSchema = "{ type: string, maxLength: 64, x-sensitive: true }";
  for (let i = 0; i < 50; i++) deepSchema = `{ type: object, properties: { n: ${deepSchema} } }`;
  const contracts = contractsFromYaml({
    "types.yaml":
      'types:\n  Tree:\n    type: object\n    properties:\n      secret: { type: string, maxLength: 64, x-sensitive: true }\n      children: { type: array, maxItems: 8, items: { $ref: "#/types/Tree" } }\n',
    "tree.yaml": toolYaml(
      "tree",
      `effect: read\ninput:\n  type: object\n  properties:\n    tree: { $ref: "types.yaml#/Tree" }\noutput: { type: object }\n${ERRORS}`,
    ),
    "deep.yaml": toolYaml("deep", `effect: read\ninput: { type: object, properties: { n: ${deepSchema} } }\noutput: { type: object }\n${ERRORS}`),
    "escaped.yaml": toolYaml(
      "escaped",
      `effect: read\ninput:\n  type: object\n  properties:\n    key: { $ref: "#/$defs/api~1key" }\n  $defs:\n    api/key: { type: string, maxLength: 64, x-sensitive: true }\noutput: { type: object }\n${ERRORS}`,
    ),
  });
  const deep = (s: string): unknown => {
    let value: unknown = s;
    for (let i = 0; i <= 50; i++) value = { n: value };
    return value;
  };
  return {
    "in a recursive named type (`tree.children[0].children[0].secret`)": {
      contract: contracts.tree!,
      input: (s) => ({ tree: { children: [{ children: [{ secret: s }] }] } }),
    },
    "51 levels deep": { contract: contracts.deep!, input: deep },
    "under `$defs` entry `api/key` (`#/$defs/api~1key`)": { contract: contracts.escaped!, input: (s) => ({ key: s }) },
  };
}

/** Calls of each shape that end REJECTED and RETRYABLE with the secret in the handler's words: how many show it anywhere. */
async function sensitiveRows(print: Print): Promise<void> {
  for (const [shape, { contract, input }] of Object.entries(sensitiveShapes())) {
    let leaks = 0;
    for (const s of secrets(CALLS / 2)) {
      const traces: TraceEvent[] = [];
      const options = { onTrace: (e: TraceEvent) => traces.push(e), sleep: async () => {} };
      const rejected = await executeTool(contract, input(s), (_i, ctx) => ctx.reject("REFUSED", `refused ${s}`), options);
      const retryable = await executeTool(
        contract,
        input(s),
        () => {
          throw new TransientError(`upstream said ${s}`);
        },
        options,
      );
      for (const shown of [rejected, retryable, ...traces]) if (containsString(shown, s)) leaks++;
    }
    print(`| x-sensitive ${shape} | the secret in ${leaks} of ${CALLS} REJECTED and RETRYABLE calls and their traces |`);
  }
}

/** Every prefix of `valid`, and `valid` with a stray character at each place, that does not parse. */
function notJson(valid: string): string[] {
  const prefixes = Array.from({ length: valid.length - 1 }, (_, i) => valid.slice(0, i + 1));
  const strays = Array.from({ length: valid.length }, (_, i) => `${valid.slice(0, i)}x${valid.slice(i)}`);
  return [...prefixes, ...strays].filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  });
}

/** Malformed arguments a model might send around a sensitive value, through the OpenAI entry point. */
async function providerRow(print: Print): Promise<void> {
  const vault = contractsFromYaml({
    "vault.yaml": toolYaml(
      "vault",
      "effect: read\ninput:\n  type: object\n  properties:\n    apiKey: { type: string, maxLength: 64, x-sensitive: true }\noutput: { type: object }\n",
    ),
  });
  let leaks = 0;
  let calls = 0;
  for (const s of secrets(10)) {
    for (const args of notJson(`{"apiKey":"${s}"}`)) {
      const chat = await runOpenAIToolCall(vault, {}, { id: "c", type: "function", function: { name: "vault", arguments: args } }, { vault: () => ({}) });
      calls++;
      if (chat.content.includes(s)) leaks++;
    }
  }
  print(`| provider run, arguments that are not JSON | the secret in ${leaks} of ${calls} results |`);
}

/** Output marked `true` stays out of traces; `withhold` never leaves the executor. */
async function outputRow(print: Print): Promise<void> {
  const { patient } = contractsFromYaml({
    "patient.yaml": toolYaml(
      "patient",
      "effect: read\ninput: { type: object }\noutput:\n  type: object\n  properties:\n    nationalId: { type: string, x-sensitive: withhold }\n    name: { type: string, x-sensitive: true }\n  required: [name]\n",
    ),
  });
  let withheld = 0;
  let traced = 0;
  const all = secrets(CALLS);
  for (const s of all) {
    const traces: TraceEvent[] = [];
    const result = await executeTool(patient!, {}, () => ({ nationalId: `id-${s}`, name: s }), { onTrace: (e) => traces.push(e) });
    if (result.ok && !containsString(result, `id-${s}`) && containsString(result, s)) withheld++;
    if (containsString(traces, s)) traced++;
  }
  print(`| x-sensitive output | \`withhold\` removed from ${withheld} of ${all.length} results (\`true\` delivered); either in ${traced} traces |`);
}

export async function benchSecondPassRuntime(print: Print = console.log): Promise<void> {
  await retryRow(print);
  await sensitiveRows(print);
  await providerRow(print);
  await outputRow(print);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSecondPassRuntime();
