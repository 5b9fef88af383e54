/**
 * Regression tests for the border findings, each written as the attack that
 * found it, through the real runtime and validators compiled with toolc's own
 * Ajv configuration (the one the shipped validators use).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAjv } from "../../generator/ajv.js";
import { standaloneModule } from "../../generator/emit/validators.js";
import type { JsonSchema } from "../../generator/ir.js";
import { createToolClient } from "../../generator/runtime/client.js";
import type { AnyToolContract, JsonSchemaObject } from "../../generator/runtime/contract.js";
import { executeByName } from "../../generator/runtime/dispatch.js";
import { checkToolDrift, MAX_TOOL_LIST_PAGES, ToolListError } from "../../generator/runtime/drift.js";
import { TransientError } from "../../generator/runtime/errors.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { runOpenAIToolCall } from "../../generator/runtime/providers.js";
import { REDACTED, redactText, Secrets } from "../../generator/runtime/redact.js";
import { createToolServer } from "../../generator/runtime/server.js";
import type { TraceEvent } from "../../generator/runtime/types.js";
import { containsString } from "../fuzz/harness.js";
import { writeValidatorRuntime } from "../helpers/transpile.js";
import { connectInMemory } from "./connect.js";
import { contracts as runtimeContracts, SECRET as SECRET_KEY, sensitiveOf } from "./fixtures.js";
import { compileYaml, contractOf, contractsFromYaml, toolYaml } from "./yaml-contracts.js";

const inputAjv = createAjv({ applyDefaults: true });
const outputAjv = createAjv({ applyDefaults: false });

function contract(name: string, input: JsonSchemaObject, output: JsonSchemaObject): AnyToolContract {
  return {
    name,
    version: 1,
    effect: "read",
    idempotent: true,
    timeoutMs: 1000,
    retry: { attempts: 1, backoffMs: 0, maxBackoffMs: 0, budgetMs: 0 },
    errors: {},
    inputSchema: input,
    outputSchema: output,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: {},
    sensitive: { input: sensitiveOf(input, "input"), output: sensitiveOf(output, "output") },
    validators: { validateInput: inputAjv.compile(input), validateOutput: outputAjv.compile(output) },
  };
}

const INHERITED = ["constructor", "toString", "valueOf", "hasOwnProperty"] as const;
const inheritedProps = Object.fromEntries(INHERITED.map((k) => [k, { type: "string" }]));

describe("names that live on Object.prototype are ordinary properties", () => {
  const tool = contract(
    "proto_names",
    {
      type: "object",
      properties: { ...inheritedProps, valueOf: { type: "string", default: "dflt" } },
      required: ["constructor", "toString"],
      additionalProperties: false,
    },
    { type: "object", properties: { ...inheritedProps }, required: ["hasOwnProperty"], additionalProperties: false },
  );

  it("required inherited names are missing from {}: the handler never runs", async () => {
    let ran = false;
    const result = await executeTool(tool, {}, () => ((ran = true), { hasOwnProperty: "x" }));
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: "constructor" }, { path: "toString" }] });
    expect(ran).toBe(false);
  });

  it("an optional valueOf gets its default when missing, and is accepted when sent", async () => {
    const seen: unknown[] = [];
    const handler = (input: unknown): unknown => (seen.push(input), { hasOwnProperty: "h" });
    expect(await executeTool(tool, { constructor: "c", toString: "t" }, handler)).toMatchObject({ ok: true });
    expect(await executeTool(tool, { constructor: "c", toString: "t", valueOf: "v", hasOwnProperty: "h" }, handler)).toMatchObject({ ok: true });
    expect(seen).toEqual<unknown[]>([
      { constructor: "c", toString: "t", valueOf: "dflt" },
      { constructor: "c", toString: "t", valueOf: "v", hasOwnProperty: "h" },
    ]);
  });

  it("an output missing a required hasOwnProperty never leaves", async () => {
    const result = await executeTool(tool, { constructor: "c", toString: "t" }, () => ({ toString: "only" }));
    expect(result).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
  });
});

describe("the bytes on the wire are the bytes validated", () => {
  const tool = contract("profile", { type: "object" }, { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false });

  it("a non-enumerable toJSON is never called: text and structuredContent carry the validated value", async () => {
    const output = { name: "ada" };
    Object.defineProperty(output, "toJSON", { value: () => ({ name: "ada", password: "hunter2-secret" }), enumerable: false });
    const server = createToolServer({ profile: tool }, { profile: () => output });
    const { client, close } = await connectInMemory(server);
    try {
      const result = await client.callTool({ name: "profile", arguments: {} });
      const text = (result.content as { type: string; text: string }[])[0].text;
      expect(text).not.toContain("hunter2");
      expect(JSON.parse(text)).toEqual({ name: "ada" });
      expect(result.structuredContent).toEqual(JSON.parse(text));
    } finally {
      await close();
    }
  });

  it("a getter that answers differently on a second read cannot change what was validated", async () => {
    let reads = 0;
    const output = { get name(): unknown { return ++reads === 1 ? "ada" : { leaked: true }; } };
    const result = await executeTool(tool, {}, () => output);
    expect(result).toEqual({ ok: true, data: { name: "ada" } });
    expect(JSON.stringify(result.ok && result.data)).toBe('{"name":"ada"}');
  });
});

describe("any thrown value is a counted, traced attempt", () => {
  it("a Proxy whose every read throws: attempts 1, effect none on a read, one trace event", async () => {
    const hostile = new Proxy({}, { get: () => { throw new Error("trap"); }, getPrototypeOf: () => { throw new Error("trap"); }, has: () => { throw new Error("trap"); } });
    const events: TraceEvent[] = [];
    const tool = contract("t", { type: "object" }, { type: "object" });
    const result = await executeTool(tool, {}, () => { throw hostile; }, { onTrace: (e) => events.push(e) });
    expect(result).toMatchObject({ ok: false, code: "FAILED", attempts: 1, effect: "none" });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ attempt: 1, code: "FAILED" });
  });
});

describe("a promise the executor cannot adopt", () => {
  it("a promise whose constructor read throws is a failed attempt, and the call still settles", async () => {
    const events: TraceEvent[] = [];
    const tool = contract("t", { type: "object" }, { type: "object" });
    const result = await executeTool(tool, {}, () => {
      const promise = Promise.resolve({});
      // Promise.resolve reads `constructor` of a native promise, and throws what this getter throws.
      Object.defineProperty(promise, "constructor", { get: () => { throw new Error("trap"); } });
      return promise;
    }, { onTrace: (e) => events.push(e) });
    expect(result).toMatchObject({ ok: false, code: "FAILED", attempts: 1, effect: "none" });
    expect(events.map((e) => [e.attempt, e.code])).toEqual([[1, "FAILED"]]);
  });
});

describe("execute never throws, whatever it is given", () => {
  const tool = contract("t", { type: "object" }, { type: "object" });
  const hostile = new Proxy({}, { get: () => { throw new Error("trap"); }, getOwnPropertyDescriptor: () => { throw new Error("trap"); } });

  it.each([
    ["null handlers", () => executeByName({ t: tool }, "t", {}, null as never)],
    ["handlers that are a string", () => executeByName({ t: tool }, "t", {}, "x" as never)],
    ["handlers whose reads throw", () => executeByName({ t: tool }, "t", {}, hostile as never)],
    ["a symbol for a name", () => executeByName({ t: tool }, Symbol("x") as never, {}, {})],
    ["null options", () => executeByName({ t: tool }, "t", {}, { t: () => ({}) }, null as never)],
    ["options whose reads throw", () => executeByName({ t: tool }, "t", {}, { t: () => ({}) }, hostile as never)],
    ["a null contract", () => executeTool(null as never, {}, (() => ({})) as never)],
  ])("%s", async (_name, call) => {
    let promise: Promise<unknown> | undefined;
    expect(() => (promise = call())).not.toThrow();
    const result = await promise;
    expect(result).toMatchObject({ ok: expect.any(Boolean) });
  });
});

describe("secrets", () => {
  const KEY = "sk_live_0123456789";
  const tool = contract(
    "vault",
    {
      type: "object",
      properties: { tokens: { type: "object", additionalProperties: { type: "integer" }, "x-sensitive": true }, pin: { type: "string", "x-sensitive": true } },
      additionalProperties: false,
    },
    { type: "object" },
  );

  it("keys of an x-sensitive map appear neither in issue paths nor in trace issuePaths", async () => {
    const events: TraceEvent[] = [];
    const result = await executeTool(tool, { tokens: { [KEY]: "not a number" } }, () => ({}), { onTrace: (e) => events.push(e) });
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: `tokens[${JSON.stringify(REDACTED)}]` }] });
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });

  it("a secret shorter than the minimum does not scrub every message it happens to occur in", async () => {
    const result = await executeTool(tool, { pin: "a" }, () => { throw new TransientError("a database at capacity"); });
    expect(result).toMatchObject({ code: "RETRYABLE", message: "The tool failed temporarily: a database at capacity." });
  });

  it("a short secret is scrubbed where it stands as a token, not inside longer numbers", () => {
    expect(redactText("pin 987 rejected after 19870 ms", new Secrets(["987"]))).toBe(`pin ${REDACTED} rejected after 19870 ms`);
  });

  it("a megabyte-long secret still gets an ordinary envelope, its free text withheld whole", async () => {
    const huge = "x".repeat(1_000_000);
    const result = await executeTool(tool, { pin: huge, tokens: { a: "no" } }, () => ({}));
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: REDACTED, message: REDACTED }] });
    const failed = await executeTool(tool, { pin: huge }, () => { throw new TransientError(`bad pin ${huge}`); });
    expect(failed).toMatchObject({ ok: false, code: "RETRYABLE", message: `The tool failed temporarily: ${REDACTED}.` });
  });

  it("URL-encoded, JSON-escaped and upper-cased copies of a secret are scrubbed", async () => {
    const secret = 'p@ss w"rd/x9';
    const messages = [`GET /login?pw=${encodeURIComponent(secret)}`, `body {"pw":${JSON.stringify(secret)}}`, `PW=${secret.toUpperCase()}`];
    for (const message of messages) {
      const result = await executeTool(tool, { pin: secret }, () => { throw new TransientError(message); });
      expect(result.ok).toBe(false);
      const text = JSON.stringify(result);
      expect(text).toContain(REDACTED);
      expect(text).not.toContain(encodeURIComponent(secret));
      expect(text.toLowerCase()).not.toContain("w\\\\\\\"rd");
      expect(text).not.toContain(secret.toUpperCase());
    }
  });
});

/** Everything a trace sink or a caller could print: the value, and every string inside it, non-enumerable ones (an Error's message, stack, cause) too. */
function shows(value: unknown, needle: string): boolean {
  return JSON.stringify(value)?.includes(needle) === true || containsString(value, needle);
}

describe("x-sensitive is tracked wherever the schema lets a value sit", () => {
  const SECRET = "zQ-tracked-0123456789";
  const refuse = { REFUSED: { description: "Refused." } };
  const errors = `errors:\n  REFUSED: { description: ${refuse.REFUSED.description} }\n`;
  // 50 schema levels: past the 32 the old path list stopped at, inside the 128 YAML levels TC037 allows.
  const LEVELS = 50;
  let deepSchema = "{ type: string, maxLength: 64, x-sensitive: true }";
  for (let i = 0; i < LEVELS; i++) deepSchema = `{ type: object, properties: { n: ${deepSchema} } }`;
  let deepValue: unknown = SECRET;
  for (let i = 0; i <= LEVELS; i++) deepValue = { n: deepValue };
  const contracts = contractsFromYaml({
    "types.yaml": `types:
  Tree:
    type: object
    properties:
      label: { type: string, maxLength: 64 }
      secret: { type: string, maxLength: 64, x-sensitive: true }
      children: { type: array, maxItems: 8, items: { $ref: "#/types/Tree" } }
`,
    "tree.yaml": toolYaml("tree", `effect: read\ninput:\n  type: object\n  properties:\n    tree: { $ref: "types.yaml#/Tree" }\noutput: { type: object }\n${errors}`),
    "deep.yaml": toolYaml("deep", `effect: read\ninput: { type: object, properties: { n: ${deepSchema} } }\noutput: { type: object }\n${errors}`),
    "escaped.yaml": toolYaml("escaped", `effect: read
input:
  type: object
  properties:
    key: { $ref: "#/$defs/api~1key" }
  $defs:
    api/key: { type: string, maxLength: 64, x-sensitive: true }
output: { type: object }
${errors}`),
  });
  const inputs: Record<string, unknown> = {
    tree: { tree: { label: "root", children: [{ label: "a", children: [{ label: "b", secret: SECRET }] }] } },
    deep: deepValue,
    escaped: { key: SECRET },
  };

  it.each(Object.keys(inputs))("%s: the value reaches no REJECTED or RETRYABLE message and no trace", async (name) => {
    const contract = contracts[name] as AnyToolContract;
    const events: TraceEvent[] = [];
    const options = { onTrace: (e: TraceEvent) => events.push(e), sleep: async () => {} };
    const rejected = await executeTool(contract, inputs[name], (_input, ctx) => ctx.reject("REFUSED", `refused ${SECRET}`), options);
    const retryable = await executeTool(contract, inputs[name], () => { throw new TransientError(`upstream said ${SECRET}`); }, options);
    const failed = await executeTool(contract, inputs[name], () => { throw new Error(`boom ${SECRET}`, { cause: SECRET }); }, options);
    expect(rejected).toMatchObject({ code: "REJECTED", message: `refused ${REDACTED}` });
    expect(retryable).toMatchObject({ code: "RETRYABLE", message: `The tool failed temporarily: upstream said ${REDACTED}.` });
    expect(failed).toMatchObject({ code: "FAILED" });
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const shown of [rejected, retryable, failed, ...events]) expect(shows(shown, SECRET)).toBe(false);
  });

  it("a key below a sensitive map deep in a recursive type is hidden from issue paths", async () => {
    const [vault] = compileYaml({
      "types.yaml": "types:\n  Node:\n    type: object\n    properties:\n      tokens: { type: object, maxProperties: 4, additionalProperties: { type: integer }, x-sensitive: true }\n      next: { $ref: \"#/types/Node\" }\n",
      "vault.yaml": toolYaml("vault", "effect: read\ninput: { type: object, properties: { node: { $ref: \"types.yaml#/Node\" } } }\noutput: { type: object }\n"),
    }).tools;
    const result = await executeTool(contractOf(vault!), { node: { next: { next: { tokens: { [SECRET]: "not a number" } } } } }, () => ({}));
    expect(result).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: `node.next.next.tokens[${JSON.stringify(REDACTED)}]` }] });
    expect(shows(result, SECRET)).toBe(false);
  });

  it.each([
    ["x-sensitive under propertyNames", "input:\n  type: object\n  properties:\n    m: { type: object, maxProperties: 2, additionalProperties: true, propertyNames: { maxLength: 9, x-sensitive: true } }\noutput: { type: object }\n", "under `propertyNames`"],
    ["withhold on a required output property", "input: { type: object }\noutput:\n  type: object\n  properties:\n    id: { type: string, x-sensitive: withhold }\n  required: [id]\n", "lists it in `required`"],
    ["withhold on an array item", "input: { type: object }\noutput:\n  type: object\n  properties:\n    ids: { type: array, items: { type: string, x-sensitive: withhold } }\n", "not on a root, an array item"],
    ["withhold on input", "input:\n  type: object\n  properties:\n    pin: { type: string, maxLength: 8, x-sensitive: withhold }\noutput: { type: object }\n", "mark it `x-sensitive: true`"],
    ["withhold in an object with minProperties", "input: { type: object }\noutput:\n  type: object\n  minProperties: 1\n  properties:\n    id: { type: string, x-sensitive: withhold }\n", "`minProperties`"],
  ])("a contract with %s is refused with a located TC039, never compiled untracked", (_name, body, says) => {
    const { diagnostics } = compileYaml({ "t.yaml": toolYaml("t", `effect: read\n${body}`) });
    const errors = diagnostics.filter((d) => d.severity === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: "TC039", file: "t.yaml" });
    expect(errors[0]!.message).toContain(says);
    expect(errors[0]!.line).toBeGreaterThan(1);
  });

  it("a sensitive input map without maxProperties is a TC036 warning at the map", () => {
    const { diagnostics } = compileYaml({
      "t.yaml": toolYaml("t", "effect: read\ninput:\n  type: object\n  properties:\n    tokens: { type: object, additionalProperties: { type: string, maxLength: 64, x-sensitive: true } }\n    bounded: { type: object, maxProperties: 8, additionalProperties: { type: string, maxLength: 64, x-sensitive: true } }\noutput: { type: object }\n"),
    });
    const warnings = diagnostics.filter((d) => d.code === "TC036");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ severity: "warning", line: 8 });
    expect(warnings[0]!.message).toContain("sensitive map with no `maxProperties`");
  });
});

describe("the typed client passes on nothing a server echoes", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => { await close?.(); close = undefined; });

  /** A server that answers every tools/call with `envelope` as its failure. */
  async function echoing(envelope: Record<string, unknown>) {
    const server = new Server({ name: "echo", version: "0.0.1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(CallToolRequestSchema, () => ({ isError: true, content: [{ type: "text" as const, text: JSON.stringify(envelope) }], _meta: { "toolc/failure": envelope } }));
    const connected = await connectInMemory(server);
    close = connected.close;
    return createToolClient(runtimeContracts, connected.client);
  }

  it("scrubs the secret from issue paths, issue messages and the tool name, not only from the message", async () => {
    const tools = await echoing({
      ok: false, code: "INVALID_INPUT", message: `bad ${SECRET_KEY}`, retryable: false, effect: "none", tool: `get_order ${SECRET_KEY}`, version: 2, attempts: 0,
      issues: [{ path: `apiKey.${SECRET_KEY}`, message: `${SECRET_KEY} is not a key we know` }],
    });
    const result = await tools.get_order({ customerId: "c", apiKey: SECRET_KEY });
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", tool: "get_order", issues: [{ path: `apiKey.${REDACTED}`, message: `${REDACTED} is not a key we know` }] });
    expect(shows(result, SECRET_KEY)).toBe(false);
  });

  it("turns a RETRYABLE its own contract rules out (destructive, not idempotent) into FAILED, effect unknown", async () => {
    const tools = await echoing({ ok: false, code: "RETRYABLE", message: "try again", retryable: true, effect: "none", tool: "delete_order", version: 2, attempts: 1 });
    const result = await tools.delete_order({ orderId: "o" });
    expect(result).toMatchObject({ ok: false, code: "FAILED", retryable: false, effect: "unknown", tool: "delete_order" });
    expect(result.ok === false && result.message).toContain("not safe to retry");
  });

  it("takes the retry verdict from the code, not from the server's flag", async () => {
    const tools = await echoing({ ok: false, code: "FAILED", message: "no", retryable: true, effect: "none", tool: "get_order", version: 2, attempts: 1 });
    expect(await tools.get_order({ customerId: "c" })).toMatchObject({ code: "FAILED", retryable: false });
  });
});

describe("a provider's run never quotes what a model sent", () => {
  const KEY = "sk_live_0123456789abcdef";
  const vault = contractsFromYaml({
    "vault.yaml": toolYaml("vault", "effect: read\ninput:\n  type: object\n  properties:\n    apiKey: { type: string, maxLength: 64, x-sensitive: true }\n    tokens: { type: object, maxProperties: 4, additionalProperties: true, x-sensitive: true }\noutput: { type: object }\n"),
  });
  const handlers = { vault: () => ({}) };

  it.each([
    ["a truncated object", `{"apiKey":"${KEY}","tokens":`],
    ["a stray character", `{"apiKey":"${KEY}"x}`],
    ["an unquoted secret", `{"apiKey":${KEY}}`],
  ])("OpenAI arguments that are not JSON (%s): INVALID_INPUT in toolc's words, without V8's snippet", async (_name, args) => {
    const events: TraceEvent[] = [];
    const chat = await runOpenAIToolCall(vault, {}, { id: "c1", type: "function", function: { name: "vault", arguments: args } }, handlers, { onTrace: (e) => events.push(e) });
    const responses = await runOpenAIToolCall(vault, {}, { type: "function_call", call_id: "c2", name: "vault", arguments: args }, handlers);
    for (const text of [chat.content, responses.output]) {
      expect(JSON.parse(text)).toMatchObject({ ok: false, code: "INVALID_INPUT" });
      expect(text).not.toContain(KEY);
      expect(text).not.toContain("sk_live");
    }
    expect(shows(events, KEY)).toBe(false);
  });

  it("a sensitive map key in input nested past the depth limit is not named in the message", async () => {
    const args = `{"tokens":{"${KEY}":${"[".repeat(300)}${"]".repeat(300)}}}`;
    const chat = await runOpenAIToolCall(vault, {}, { id: "c1", type: "function", function: { name: "vault", arguments: args } }, handlers);
    expect(JSON.parse(chat.content)).toMatchObject({ code: "INVALID_INPUT", issues: [{ message: expect.stringContaining(`at tokens[${JSON.stringify(REDACTED)}]`) }] });
    expect(chat.content).not.toContain(KEY);
    const direct = await executeTool(vault.vault!, JSON.parse(args), () => ({}));
    expect(shows(direct, KEY)).toBe(false);
  });
});

/** A validators module exactly as `toolc generate` emits it, written with the runtime it imports and loaded as JavaScript. */
async function emittedValidators(input: JsonSchemaObject): Promise<{ dir: string; validators: AnyToolContract["validators"] }> {
  const dir = mkdtempSync(join(tmpdir(), "toolc-emitted-"));
  writeFileSync(join(dir, "package.json"), '{"type":"module"}\n');
  symlinkSync(join(new URL("../../", import.meta.url).pathname, "node_modules"), join(dir, "node_modules"), "dir");
  writeValidatorRuntime(dir);
  mkdirSync(join(dir, "validators"));
  writeFileSync(join(dir, "validators/t.js"), standaloneModule([{ exportName: "validateInput", schema: input as JsonSchema, applyDefaults: true }, { exportName: "validateOutput", schema: { type: "object" }, applyDefaults: false }]));
  return { dir, validators: await import(pathToFileURL(join(dir, "validators/t.js")).href) };
}

describe("recursive unions validate in time linear in the input", () => {
  // The attack: a union whose branches both recurse into `child`. With allErrors, Ajv validated both branches in
  // full at every level, so a valid 24-level chain took seconds and an invalid leaf at depth 16 took 25 s.
  const branch = (kind: string): JsonSchemaObject => ({ type: "object", properties: { child: { $ref: "#/$defs/Node" }, kind: { const: kind } }, required: ["kind"], additionalProperties: false });
  const json: JsonSchemaObject = { anyOf: [{ type: ["string", "number", "boolean", "null"] }, { type: "array", items: { $ref: "#/$defs/Json" } }, { type: "object", additionalProperties: { $ref: "#/$defs/Json" } }] };
  const input: JsonSchemaObject = {
    type: "object",
    properties: { node: { $ref: "#/$defs/Node" }, json: { $ref: "#/$defs/Json" } },
    additionalProperties: false,
    $defs: { Node: { anyOf: [branch("leaf"), branch("wrap")] }, Json: json },
  };
  const chain = (depth: number, leaf: object = { kind: "leaf" }): unknown => {
    let node: unknown = leaf;
    for (let i = 0; i < depth; i++) node = { kind: "wrap", child: node };
    return node;
  };
  const nested = (depth: number): unknown => {
    let node: unknown = 1;
    for (let i = 0; i < depth; i++) node = i % 2 === 0 ? [node] : { a: node };
    return node;
  };
  let dir: string;
  let tool: AnyToolContract;

  beforeAll(async () => {
    const emitted = await emittedValidators(input);
    dir = emitted.dir;
    tool = { ...contract("tree", { type: "object" }, { type: "object" }), inputSchema: input, validators: emitted.validators };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** How many property reads and key listings validating `data` takes: the work, counted rather than timed. */
  function work(data: unknown): { valid: boolean; reads: number } {
    let reads = 0;
    const watch = (value: unknown): unknown => {
      if (value === null || typeof value !== "object") return value;
      const target = Array.isArray(value) ? value.map(watch) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, watch(v)]));
      return new Proxy(target, { get: (t, k, r) => (reads++, Reflect.get(t, k, r)), ownKeys: (t) => (reads++, Reflect.ownKeys(t)) });
    };
    const validate = (tool.validators as { validateInput: (d: unknown) => boolean }).validateInput;
    return { valid: validate(watch(data)), reads };
  }

  it.each([
    ["a valid chain of the union whose branches both recurse", (d: number) => ({ node: chain(d) }), true],
    ["the same chain with an invalid leaf", (d: number) => ({ node: chain(d, { kind: "leaf", extra: 1 }) }), false],
    ["a valid JSON value nested in arrays and objects", (d: number) => ({ json: nested(d) }), true],
  ] as const)("%s: twice the depth is about twice the work, not 2^depth times", (_name, data, valid) => {
    const shallow = work(data(12));
    const deep = work(data(24));
    expect([shallow.valid, deep.valid]).toEqual([valid, valid]);
    expect(deep.reads).toBeLessThanOrEqual(shallow.reads * 2.5);
  });

  it("an invalid leaf at depth 16 is one issue, at the leaf's own path; a bad tag is named at the tag", async () => {
    const deep = `node${".child".repeat(16)}`;
    const extra = await executeTool(tool, { node: chain(16, { kind: "leaf", extra: 1 }) }, () => ({}));
    expect(extra).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: `${deep}.extra`, message: "is not an allowed property" }] });
    const unknown = await executeTool(tool, { node: chain(16, { kind: "twig" }) }, () => ({}));
    expect(unknown).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: `${deep}.kind`, message: "must select one of the allowed shapes" }] });
    const missing = await executeTool(tool, { node: chain(16, {}) }, () => ({}));
    expect(missing).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: `${deep}.kind`, message: "must be a string that selects one of the allowed shapes" }] });
  });
});

describe("multipleOf with a decimal step decides by the decimal digits", () => {
  // The attack: `multipleOf: 0.01` rejected 19.99, 4.35 and 0.07 (float division: 19.99 / 0.01 = 1998.9999999999998).
  const input: JsonSchemaObject = {
    type: "object",
    properties: { price: { type: "number", multipleOf: 0.01 }, dose: { type: "number", multipleOf: 0.125 }, qty: { type: "integer", multipleOf: 3 } },
    additionalProperties: false,
  };
  let dir: string;
  let tool: AnyToolContract;
  beforeAll(async () => {
    const emitted = await emittedValidators(input);
    dir = emitted.dir;
    tool = { ...contract("price", { type: "object" }, { type: "object" }), inputSchema: input, validators: emitted.validators };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [{ price: 19.99 }], [{ price: 4.35 }], [{ price: 0.07 }], [{ price: 0.3 }], [{ price: 1.1 }], [{ price: -12345678.9 }], [{ price: 1e21 }],
    [{ dose: 2.375 }], [{ qty: 9 }], [{ qty: 3e21 }],
  ])("accepts %j, an exact multiple", async (value) => {
    expect(await executeTool(tool, value, () => ({}))).toEqual({ ok: true, data: {} });
  });

  it.each([
    // 2.675 is 267.5 hundredths; the others are near misses a tolerance would let through.
    [{ price: 2.675 }, "price", "0.01"], [{ price: 0.0100000001 }, "price", "0.01"], [{ price: 19.990000000000002 }, "price", "0.01"],
    [{ dose: 2.3751 }, "dose", "0.125"], [{ qty: 1e21 }, "qty", "3"],
  ] as const)("rejects %j, which is not", async (value, path, step) => {
    const result = await executeTool(tool, value, () => ({}));
    expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path, message: `must be a multiple of ${step}` }] });
  });
});

describe("the drift check against a server whose tools/list never ends", () => {
  // The attack: a server that answers every page with the same nextCursor kept verifyServer listing forever
  // (2,322 pages in 3 s, starving timers).
  async function lister(nextCursor: (page: number) => string): Promise<{ pages: () => number; run: () => Promise<unknown>; close: () => Promise<void> }> {
    let pages = 0;
    const server = new Server({ name: "looping", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "t", inputSchema: { type: "object" as const } }], nextCursor: nextCursor(pages++) }));
    const { client, close } = await connectInMemory(server);
    const tool = contract("t", { type: "object" }, { type: "object" });
    return { pages: () => pages, run: () => checkToolDrift({ t: tool }, client), close };
  }

  it("stops at the first repeated cursor, with a ToolListError", async () => {
    const server = await lister(() => "again");
    try {
      const error = await server.run().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ToolListError);
      expect(error).toMatchObject({ name: "ToolListError", problem: "repeated-cursor", pages: 2, message: "the server's tools/list repeated a cursor after 2 pages, so its listing never ends" });
      expect(server.pages()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("stops after a bounded number of pages of ever-new cursors", async () => {
    const server = await lister((page) => `page-${page}`);
    try {
      await expect(server.run()).rejects.toMatchObject({ problem: "too-many-pages", pages: MAX_TOOL_LIST_PAGES });
      expect(server.pages()).toBe(MAX_TOOL_LIST_PAGES);
    } finally {
      await server.close();
    }
  });
});

describe("a retry never runs beside the attempt that timed out", () => {
  // The attack: a write with an idempotencyKey, a 100 ms timeout and a 150 ms handler that ignores ctx.signal.
  // The retry started at once, two handlers ran at the same time, and a check-then-insert applied the write twice.
  function write(timeoutMs: number, attempts: number): AnyToolContract {
    const input: JsonSchemaObject = { type: "object", properties: { requestId: { type: "string" } }, required: ["requestId"], additionalProperties: false };
    return {
      ...contract("record", input, { type: "object" }),
      effect: "write",
      idempotent: false,
      idempotencyKey: "requestId",
      timeoutMs,
      retry: { attempts, backoffMs: 1, maxBackoffMs: 1, budgetMs: 0 },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    };
  }
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("waits for the timed-out handler to settle: one handler at a time, and the write applied once", async () => {
    const rows = new Map<string, number>();
    let running = 0;
    let most = 0;
    const handler = async (input: unknown) => {
      running++;
      most = Math.max(most, running);
      const { requestId } = input as { requestId: string };
      try {
        // Check, then insert, 150 ms apart: safe only if no other attempt runs in between.
        const seen = rows.has(requestId);
        await pause(150);
        if (!seen) rows.set(requestId, (rows.get(requestId) ?? 0) + 1);
        return {};
      } finally {
        running--;
      }
    };
    const result = await executeTool(write(100, 2), { requestId: "req_1" }, handler);
    expect(result).toMatchObject({ ok: false, code: "RETRYABLE", effect: "unknown", attempts: 2 });
    expect(most).toBe(1);
    expect([...rows]).toEqual([["req_1", 1]]);
  });

  it("a handler still running after its grace period ends the call: no retry beside it, and the envelope says it may still apply", async () => {
    let started = 0;
    const never = () => {
      started++;
      return new Promise(() => {});
    };
    const result = await executeTool(write(30, 3), { requestId: "req_2" }, never);
    expect(result).toEqual({
      ok: false,
      code: "RETRYABLE",
      message: "The tool timed out after 30 ms, and the timed-out attempt was still running, so it was not retried; it may still take effect.",
      retryable: true,
      effect: "unknown",
      tool: "record",
      version: 1,
      attempts: 1,
    });
    expect(started).toBe(1);
  });
});
