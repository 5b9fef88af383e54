/**
 * `x-sensitive` on output, on every path a result takes: `true` reaches the
 * caller and nothing else, `withhold` reaches no caller at all; neither ever
 * shows in a trace or an INVALID_OUTPUT report. The contracts are compiled
 * from YAML by toolc's own phases; the MCP server and client are the real
 * SDK 1.x ones in memory (test/e2e/sensitive-output.test.ts runs both SDK
 * lines on generated code).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createToolClient } from "../../generator/runtime/client.js";
import type { AnyToolContract } from "../../generator/runtime/contract.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { aiSdkToolSet, runAnthropicToolUse, runGeminiFunctionCall, runOpenAIToolCall } from "../../generator/runtime/providers.js";
import { createToolServer } from "../../generator/runtime/server.js";
import type { TraceEvent } from "../../generator/runtime/types.js";
import { containsString } from "../fuzz/harness.js";
import { connectInMemory } from "./connect.js";
import { DELIVERED, INSURANCE, KEY_NAME, NATIONAL_ID, PATIENT_TYPES, SENSITIVE as ALL, stored, WITHHELD } from "./patients.js";
import { contractsFromYaml, toolYaml } from "./yaml-contracts.js";

const contracts = contractsFromYaml({
  "types.yaml": PATIENT_TYPES,
  "get_patient.yaml": toolYaml("get_patient", `effect: read
input: { type: object, properties: { patientId: { type: string, maxLength: 64 } }, required: [patientId] }
output:
  type: object
  properties:
    patient: { $ref: "types.yaml#/Patient" }
    count: { type: integer }
  required: [patient]
`),
  "pick.yaml": toolYaml("pick", `effect: read
input: { type: object }
output:
  type: object
  properties:
    choice:
      oneOf:
        - { type: object, properties: { kind: { const: a }, secretId: { type: string, x-sensitive: withhold } }, required: [kind] }
        - { type: object, properties: { kind: { const: a } }, required: [kind] }
`),
});
const getPatient = contracts.get_patient as AnyToolContract;

function shows(value: unknown, needle: string): boolean {
  return JSON.stringify(value)?.includes(needle) === true || containsString(value, needle);
}

const handlers = { get_patient: () => stored(), pick: () => ({ choice: { kind: "a", secretId: NATIONAL_ID } }) };

describe("execute", () => {
  it("returns x-sensitive: true output and removes withheld output, at any depth, in properties and map values", async () => {
    const events: TraceEvent[] = [];
    const result = await executeTool(getPatient, { patientId: "p_1" }, handlers.get_patient, { onTrace: (e) => events.push(e) });
    expect(result).toEqual({ ok: true, data: DELIVERED });
    for (const value of ALL) expect(shows(events, value)).toBe(false);
  });

  it("never puts sensitive output in an INVALID_OUTPUT envelope or its trace, neither values nor map keys", async () => {
    const events: TraceEvent[] = [];
    const bad = stored({ count: "many" });
    (bad.patient as Record<string, unknown>).keys = { [KEY_NAME]: 42 };
    const result = await executeTool(getPatient, { patientId: "p_1" }, () => bad, { onTrace: (e) => events.push(e) });
    expect(result).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
    expect(events.at(-1)?.issuePaths).toEqual(['patient.keys["[REDACTED]"]', "count"]);
    for (const value of ALL) expect(shows([result, events], value)).toBe(false);
  });

  it("a sensitive output value the handler also used as a key is scrubbed from the issue path that names the key", async () => {
    const events: TraceEvent[] = [];
    const bad = stored({ [INSURANCE]: true });
    const result = await executeTool(getPatient, { patientId: "p_1" }, () => bad, { onTrace: (e) => events.push(e) });
    expect(result).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
    for (const value of ALL) expect(shows([result, events], value)).toBe(false);
  });

  it("output that no longer passes its schema once withheld values are gone is INVALID_OUTPUT, not sent", async () => {
    const result = await executeTool(contracts.pick as AnyToolContract, {}, handlers.pick);
    expect(result).toMatchObject({ ok: false, code: "INVALID_OUTPUT" });
    expect(shows(result, NATIONAL_ID)).toBe(false);
  });
});

describe("MCP and the typed client", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => { await close?.(); close = undefined; });

  it("the server sends x-sensitive: true output and nothing withheld, in structuredContent, the text block and the typed client's data", async () => {
    const events: TraceEvent[] = [];
    const connected = await connectInMemory(createToolServer(contracts, handlers, { onTrace: (e) => events.push(e) }));
    close = connected.close;
    const raw = await connected.client.callTool({ name: "get_patient", arguments: { patientId: "p_1" } });
    expect(raw.structuredContent).toEqual(DELIVERED);
    expect(JSON.parse((raw.content as { text: string }[])[0]!.text)).toEqual(DELIVERED);
    for (const value of WITHHELD) expect(JSON.stringify(raw)).not.toContain(value);
    const typed = await createToolClient(contracts, connected.client).get_patient!({ patientId: "p_1" });
    expect(typed).toEqual({ ok: true, data: DELIVERED });
    for (const value of ALL) expect(shows(events, value)).toBe(false);
  });

  it("the typed client removes a withheld value a server sends anyway", async () => {
    const server = new Server({ name: "old", version: "0.0.1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: "text" as const, text: JSON.stringify(stored()) }], structuredContent: stored() }));
    const connected = await connectInMemory(server);
    close = connected.close;
    expect(await createToolClient(contracts, connected.client).get_patient!({ patientId: "p_1" })).toEqual({ ok: true, data: DELIVERED });
  });
});

describe("each provider's run", () => {
  const call = JSON.stringify({ patientId: "p_1" });

  it.each([
    ["OpenAI Chat Completions", async () => (await runOpenAIToolCall(contracts, {}, { id: "c", type: "function", function: { name: "get_patient", arguments: call } }, handlers)).content],
    ["OpenAI Responses", async () => (await runOpenAIToolCall(contracts, {}, { type: "function_call", call_id: "c", name: "get_patient", arguments: call }, handlers)).output],
    ["Anthropic", async () => (await runAnthropicToolUse(contracts, { id: "t", name: "get_patient", input: { patientId: "p_1" } }, handlers)).content],
    ["Gemini", async () => JSON.stringify((await runGeminiFunctionCall(contracts, { name: "get_patient", args: { patientId: "p_1" } }, handlers)).response["output"])],
    ["AI SDK", async () => JSON.stringify(await aiSdkToolSet(contracts, {}, handlers)["get_patient"]!.execute({ patientId: "p_1" }, {}))],
  ])("%s: the result carries x-sensitive: true output and nothing withheld", async (_name, run) => {
    expect(JSON.parse(await run())).toEqual(DELIVERED);
  });

  it.each([
    ["OpenAI", async (h: typeof handlers) => (await runOpenAIToolCall(contracts, {}, { id: "c", type: "function", function: { name: "get_patient", arguments: call } }, h)).content],
    ["Anthropic", async (h: typeof handlers) => (await runAnthropicToolUse(contracts, { id: "t", name: "get_patient", input: { patientId: "p_1" } }, h)).content],
    ["Gemini", async (h: typeof handlers) => JSON.stringify(await runGeminiFunctionCall(contracts, { name: "get_patient", args: { patientId: "p_1" } }, h))],
    ["AI SDK", async (h: typeof handlers) => JSON.stringify(await aiSdkToolSet(contracts, {}, h)["get_patient"]!.execute({ patientId: "p_1" }, {}))],
  ])("%s: an INVALID_OUTPUT result shows no sensitive output", async (_name, run) => {
    const text = await run({ ...handlers, get_patient: () => stored({ count: "many" }) });
    expect(text).toContain('"code":"INVALID_OUTPUT"');
    for (const value of ALL) expect(text).not.toContain(value);
  });
});
