/**
 * Regression tests for the border findings, each written as the attack that
 * found it, through the real runtime and validators compiled with toolc's own
 * Ajv configuration (the one the shipped validators use).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createAjv } from "../../generator/ajv.js";
import { createToolClient } from "../../generator/runtime/client.js";
import type { AnyToolContract, JsonSchemaObject } from "../../generator/runtime/contract.js";
import { executeByName } from "../../generator/runtime/dispatch.js";
import { TransientError } from "../../generator/runtime/errors.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { runOpenAIToolCall } from "../../generator/runtime/providers.js";
import { REDACTED, redactText, Secrets } from "../../generator/runtime/redact.js";
import { createToolServer } from "../../generator/runtime/server.js";
import type { TraceEvent } from "../../generator/runtime/types.js";
import { containsString } from "../fuzz/harness.js";
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
