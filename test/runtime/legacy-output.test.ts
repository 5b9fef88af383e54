/**
 * Outputs whose schema root is not an object, as 2025-era clients get them:
 * the runtime's wrap (what the SDK 1.x port serves) against the SDK 2.x's own
 * projection for a 2025-era peer, byte for byte; the typed client reading the
 * value back out of it, from servers that are not toolc; and the SDK 1.x
 * server end to end in memory.
 */
import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { Server as Server1 } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Server as Server2 } from "@modelcontextprotocol/server";
import { InMemoryTransport as InMemory2 } from "@modelcontextprotocol/client";
import { createToolClient } from "../../generator/runtime/client.js";
import type { JsonSchemaObject } from "../../generator/runtime/contract.js";
import { hasObjectRoot, legacyCallResult, legacyOutputSchema, naturalOutput } from "../../generator/runtime/legacy-output.js";
import { createToolServer, FAILURE_META_KEY } from "../../generator/runtime/server.js";
import { loadDefinitions } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { ROOT } from "../compiler/helpers.js";
import { connectInMemory } from "./connect.js";
import { defineContract } from "./fixtures.js";

const USER = { type: "object", properties: { id: { type: "string" }, email: { type: "string", "x-sensitive": true } }, required: ["id", "email"], additionalProperties: false };
const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** Output schemas of every kind of root, with `$ref`s where the wrap must move them and where it must not. */
const SCHEMAS: readonly [string, JsonSchemaObject][] = [
  ["an object root", { type: "object", properties: { n: { $ref: "#/$defs/N" } }, required: ["n"], additionalProperties: false, $defs: { N: { type: "integer" } } }],
  ["an array of a bundled type", { type: "array", items: { $ref: "#/$defs/User" }, maxItems: 10, $defs: { User: USER } }],
  ["a string", { type: "string", minLength: 1, description: "The summary." }],
  ["a number", { type: "number", minimum: 0 }],
  ["null", { type: "null" }],
  ["a nullable string", { type: ["string", "null"] }],
  ["an object-or-null root, which is not `type: object`", { type: ["object", "null"], properties: { a: { type: "string" } }, additionalProperties: false }],
  ["a union with $refs and local $defs", { anyOf: [{ $ref: "#/$defs/User" }, { $ref: "#/$defs/ids" }, { type: "null" }], $defs: { User: USER, ids: { type: "array", items: { type: "string" }, minItems: 2 } } }],
  ["a $ref root to an object type", { $ref: "#/$defs/User", $defs: { User: USER } }],
  ["a stated dialect, which goes first", { $schema: DIALECT, type: "array", items: { type: "integer" } }],
  [
    "data that looks like a $ref, and properties named like keywords",
    {
      type: "array",
      items: {
        type: "object",
        properties: { $ref: { $ref: "#/$defs/N" }, default: { $ref: "#/$defs/N", default: { $ref: "#/$defs/N" } }, const: { const: { $ref: "#" } }, e: { enum: [{ $ref: "#/x" }], examples: [{ $ref: "#/y" }] } },
        additionalProperties: false,
      },
      $defs: { N: { type: "integer" } },
    },
  ],
  ["a recursive type", { type: "array", items: { $ref: "#/$defs/Node" }, $defs: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } }, additionalProperties: false } } }],
];

/** The output schemas of the non-object fixture, as toolc compiles them. */
function fixtureSchemas(): [string, JsonSchemaObject][] {
  const { ir } = normalize(loadDefinitions(join(ROOT, "test/fixtures/outputs"), { displayRoot: ROOT }));
  return ir.tools.map((tool) => [`the fixture's ${tool.name}`, tool.outputSchema as JsonSchemaObject]);
}

/**
 * What SDK 2.x puts on the wire for these output schemas to a 2025-era
 * peer: a low-level 2.x Server listing them, asked by a raw JSON-RPC
 * message in memory (an SDK client would hand back its own parse of it,
 * whose key order is not the wire's). Unnegotiated, the Server speaks 2025.
 */
async function sdk2Served(schemas: readonly JsonSchemaObject[]): Promise<unknown[]> {
  const server = new Server2({ name: "sdk2", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", () => ({ tools: schemas.map((outputSchema, i) => ({ name: `t${i}`, inputSchema: { type: "object" as const }, outputSchema })) }));
  const [peer, serverSide] = InMemory2.createLinkedPair();
  const answered = new Promise<unknown>((resolve) => (peer.onmessage = (message) => resolve(message)));
  await server.connect(serverSide);
  try {
    await peer.start();
    await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const wire = JSON.parse(JSON.stringify(await answered)) as { result: { tools: { outputSchema: unknown }[] } };
    return wire.result.tools.map((tool) => tool.outputSchema);
  } finally {
    await server.close();
  }
}

describe("the 2025-era output schema", () => {
  it("is byte for byte what SDK 2.x serves a 2025-era client, for every kind of root", async () => {
    const cases = [...SCHEMAS, ...fixtureSchemas()];
    const served = await sdk2Served(cases.map(([, schema]) => schema));
    cases.forEach(([name, schema], i) => expect(JSON.stringify(legacyOutputSchema(schema)), name).toBe(JSON.stringify(served[i])));
  });

  it("wraps a non-object root under `result` and moves its $refs there; leaves an object root as it is", () => {
    const object = SCHEMAS[0]![1];
    expect(legacyOutputSchema(object)).toBe(object);
    expect(legacyOutputSchema({ $schema: DIALECT, type: "array", items: { $ref: "#/$defs/User" }, $defs: { User: USER } })).toStrictEqual({
      $schema: DIALECT,
      type: "object",
      properties: { result: { $schema: DIALECT, type: "array", items: { $ref: "#/properties/result/$defs/User" }, $defs: { User: USER } } },
      required: ["result"],
    });
    expect(legacyOutputSchema({ enum: [{ $ref: "#/$defs/X" }] })).toStrictEqual({ type: "object", properties: { result: { enum: [{ $ref: "#/$defs/X" }] } }, required: ["result"] });
  });

  it("keeps a property named __proto__ as a property", () => {
    const schema = JSON.parse('{"type":"array","items":{"type":"object","properties":{"__proto__":{"$ref":"#/$defs/N"}}},"$defs":{"N":{"type":"integer"}}}') as JsonSchemaObject;
    expect(JSON.stringify(legacyOutputSchema(schema))).toBe('{"type":"object","properties":{"result":{"type":"array","items":{"type":"object","properties":{"__proto__":{"$ref":"#/properties/result/$defs/N"}}},"$defs":{"N":{"type":"integer"}}}},"required":["result"]}');
  });

  it.each([
    [{ type: "object" }, true],
    [{ type: ["object", "null"] }, false],
    [{ anyOf: [{ type: "object" }] }, false],
    [{ $ref: "#/$defs/User" }, false],
    [{ type: "array" }, false],
  ])("hasObjectRoot(%j) is %s", (schema, want) => expect(hasObjectRoot(schema)).toBe(want));
});

describe("the 2025-era tools/call result", () => {
  const text = (value: unknown) => [{ type: "text" as const, text: JSON.stringify(value) }];
  const CALLS: readonly [string, { content: { type: "text"; text: string }[]; structuredContent?: unknown; isError?: boolean }, JsonSchemaObject][] = [
    ["an array", { content: text([1, 2]), structuredContent: [1, 2] }, { type: "array", items: { type: "integer" } }],
    ["a string", { content: text("s"), structuredContent: "s" }, { type: "string" }],
    ["null", { content: text(null), structuredContent: null }, { type: ["string", "null"] }],
    ["zero", { content: text(0), structuredContent: 0 }, { type: "number" }],
    ["an object under a union root", { content: text({ id: "u" }), structuredContent: { id: "u" } }, { anyOf: [USER, { type: "null" }] }],
    ["an object under an object root", { content: text({ n: 1 }), structuredContent: { n: 1 } }, { type: "object" }],
    ["a failure", { content: text({ ok: false }), isError: true }, { type: "array" }],
    // Never sent (the executor checks the value first), but projected all the same.
    ["an array under an object root", { content: text([1]), structuredContent: [1] }, { type: "object" }],
  ];

  it.each(CALLS)("is what SDK 2.x's projection for a 2025-era peer makes of it: %s", (_name, result, schema) => {
    const sdk2 = new Server2({ name: "sdk2", version: "1.0.0" }, { capabilities: { tools: {} } });
    expect(JSON.stringify(legacyCallResult(result, schema))).toBe(JSON.stringify(sdk2.projectCallToolResult(result as never, schema)));
  });

  it("wraps the value in `result` for a non-object root, and is the value for an object root", () => {
    expect(legacyCallResult({ content: [], structuredContent: ["a"] }, { type: "array" })).toEqual({ content: [], structuredContent: { result: ["a"] } });
    const objectResult = { content: [], structuredContent: { a: 1 } };
    expect(legacyCallResult(objectResult, { type: "object" })).toBe(objectResult);
  });

  it.each([
    [{ result: [1] }, { type: "array" }, { value: [1] }],
    [{ result: null }, { type: "null" }, { value: null }],
    [{ a: 1 }, { type: "object" }, { value: { a: 1 } }],
    [{ a: 1 }, { type: "array" }, undefined],
    [[1], { type: "array" }, undefined],
    ["s", { type: "string" }, undefined],
  ])("naturalOutput(%j) under %j is %j", (structured, schema, want) => expect(naturalOutput(structured, schema)).toEqual(want));
});

type User = { id: string; email: string };
const listUsers = defineContract<{ team: string }, { team: string }, User[]>({
  name: "list_users",
  effect: "read",
  input: { type: "object", properties: { team: { type: "string" } }, required: ["team"], additionalProperties: false },
  output: { type: "array", items: USER },
});
const summarize = defineContract<{ text: string }, { text: string }, string | null>({
  name: "summarize",
  effect: "read",
  input: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
  output: { type: ["string", "null"], maxLength: 20 },
});
const contracts = { list_users: listUsers, summarize };

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe("the typed client, against a 2025-era server that is not toolc", () => {
  async function foreignServer(answer: (name: string) => CallToolResult) {
    const server = new Server1({ name: "foreign", version: "0.0.1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
    server.setRequestHandler(CallToolRequestSchema, (request) => answer(request.params.name));
    const { client, close } = await connectInMemory(server);
    cleanup = close;
    return createToolClient(contracts, client);
  }

  it.each([
    ["takes the value out of `{ result }`", { content: [], structuredContent: { result: [{ id: "u1", email: "a@b.c" }] } }, { ok: true, data: [{ id: "u1", email: "a@b.c" }] }],
    ["drops a property its closed item schema does not know", { content: [], structuredContent: { result: [{ id: "u1", email: "a@b.c", added: 1 }] } }, { ok: true, data: [{ id: "u1", email: "a@b.c" }] }],
    ["reads the JSON text, which is the value itself, when there is no structuredContent", { content: [{ type: "text", text: '[{"id":"u2","email":"x@y.z"}]' }] }, { ok: true, data: [{ id: "u2", email: "x@y.z" }] }],
    ["checks the value against the contract's schema", { content: [], structuredContent: { result: [{ id: 7 }] } }, { ok: false, code: "INVALID_OUTPUT" }],
    ["refuses structuredContent without the wrapper", { content: [], structuredContent: { users: [] } }, { ok: false, code: "INVALID_OUTPUT" }],
  ] as const)("%s", async (_name, answer, want) => {
    const tools = await foreignServer(() => answer as unknown as CallToolResult);
    expect(await tools.list_users({ team: "t" })).toMatchObject(want);
  });

  it("gives null as null, and a string as a string", async () => {
    let value: unknown = null;
    const tools = await foreignServer(() => ({ content: [], structuredContent: { result: value } }));
    expect(await tools.summarize({ text: "t" })).toEqual({ ok: true, data: null });
    value = "short";
    expect(await tools.summarize({ text: "t" })).toEqual({ ok: true, data: "short" });
    value = "far longer than twenty characters";
    expect(await tools.summarize({ text: "t" })).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
  });
});

describe("the SDK 1.x server, to its 2025-era clients", () => {
  async function served(handlers: { list_users?: () => unknown; summarize?: () => unknown }) {
    const server = createToolServer(contracts, handlers as never);
    const { client, close } = await connectInMemory(server as unknown as Server1);
    cleanup = close;
    return { client, typed: createToolClient(contracts, client) };
  }

  it("lists the wrapped schema and sends the wrapped value, with the value's own JSON as text", async () => {
    const { client, typed } = await served({ list_users: () => [{ id: "u1", email: "a@b.c" }], summarize: () => null });
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.outputSchema])).toStrictEqual([
      ["list_users", { type: "object", properties: { result: listUsers.outputSchema }, required: ["result"] }],
      ["summarize", { type: "object", properties: { result: summarize.outputSchema }, required: ["result"] }],
    ]);
    // callTool checks structuredContent against the schema listTools served: the wrapped pair agrees.
    expect(await client.callTool({ name: "list_users", arguments: { team: "t" } })).toEqual({
      content: [{ type: "text", text: '[{"id":"u1","email":"a@b.c"}]' }],
      structuredContent: { result: [{ id: "u1", email: "a@b.c" }] },
    });
    expect(await client.callTool({ name: "summarize", arguments: { text: "t" } })).toEqual({ content: [{ type: "text", text: "null" }], structuredContent: { result: null } });
    expect(await typed.list_users({ team: "t" })).toEqual({ ok: true, data: [{ id: "u1", email: "a@b.c" }] });
    expect(await typed.summarize({ text: "t" })).toEqual({ ok: true, data: null });
  });

  it("fails a handler's value that breaks the schema, and sends no structuredContent", async () => {
    const { client } = await served({ summarize: () => 42 });
    const result = (await client.callTool({ name: "summarize", arguments: { text: "t" } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta?.[FAILURE_META_KEY]).toMatchObject({ code: "INVALID_OUTPUT" });
  });
});
