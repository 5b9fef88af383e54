/**
 * The statements of a generated contract-test file, one function per part:
 * the case tables (literals, worked out at generation time), the helpers, and
 * one `describe` block per kind of check. `Names` holds the local names the
 * file builder handed out for the imports.
 */
import type { JsonValue } from "../../ir.js";
import { literal } from "../literal.js";
import type { ContractCases } from "./cases.js";

export interface Names {
  readonly describe: string;
  readonly expect: string;
  readonly it: string;
  readonly vi: string;
  readonly contracts: string;
  readonly execute: string;
  /** Imported only where a case validates directly rather than through execute. */
  readonly loadValidators?: string;
  readonly createServer: string;
  readonly Handlers: string;
  readonly Client: string;
  readonly InMemoryTransport: string;
  /** The consumer's handlers, with --handlers. */
  readonly handlers?: string;
}

/** Names this file declares itself; the builder must not hand them out to imports. */
export const DECLARED = [
  "TOOL",
  "contract",
  "ValidExample",
  "ValidInput",
  "InvalidExample",
  "DerivedNegative",
  "BadOutput",
  "validExamples",
  "validInputs",
  "invalidExamples",
  "validInput",
  "derivedNegatives",
  "badOutputs",
  "spyHandlers",
  "realHandlers",
  "issuePaths",
];

/** The row type of each table, declared once so the tables read as data. */
const ROW_TYPES: Readonly<Record<string, string>> = {
  ValidExample: "interface ValidExample {\n  name: string;\n  input: unknown;\n  /** What the handler must receive: the input with defaults applied. */\n  resolvedInput: unknown;\n  /** What the spy handler returns, so what the caller must get. */\n  output: unknown;\n}",
  ValidInput: "interface ValidInput {\n  name: string;\n  input: unknown;\n}",
  InvalidExample: "interface InvalidExample {\n  name: string;\n  input: unknown;\n  /** Paths that must be among the INVALID_INPUT issues. */\n  paths: readonly string[];\n}",
  DerivedNegative: "interface DerivedNegative {\n  name: string;\n  input: unknown;\n  /** The issue path that must be reported. */\n  path: string;\n}",
  BadOutput: "interface BadOutput {\n  name: string;\n  output: unknown;\n}",
};

function table(name: string, type: string, doc: string, rows: readonly JsonValue[]): string {
  return `${ROW_TYPES[type]}\n\n/** ${doc} */\nconst ${name}: readonly ${type}[] = ${literal(rows)};`;
}

export function toolConstants(toolName: string, n: Names): string {
  return `const TOOL = ${literal(toolName)};\nconst contract = ${n.contracts}[TOOL];`;
}

/** The tables, each declared only when it has rows (vitest rejects an empty table, and an empty loop says nothing). */
export function caseTables(cases: ContractCases): string[] {
  const out: string[] = [];
  if (cases.valid.length > 0) {
    const rows = cases.valid.map((c) => ({ name: c.name, input: c.input, resolvedInput: c.resolvedInput, output: c.output }));
    out.push(table("validExamples", "ValidExample", "The contract's valid examples (one without an output gets a minimal valid one).", rows));
  }
  if (cases.validInputOnly.length > 0) {
    out.push(table("validInputs", "ValidInput", "Valid examples without an output (none could be made for this tool): checked with the input validator only.", cases.validInputOnly.map((c) => ({ ...c }))));
  }
  if (cases.invalidExamples.length > 0) {
    out.push(table("invalidExamples", "InvalidExample", "The contract's invalid examples.", cases.invalidExamples.map((c) => ({ name: c.name, input: c.input, paths: [...c.paths] }))));
  }
  if (cases.baseInput !== undefined) {
    const from = cases.baseFromExample ? "the first valid example's input" : "a minimal valid input, synthesized from the schema";
    out.push(`/** A valid input: ${from}. The derived negatives each change one thing in it. */\nconst validInput: unknown = ${literal(cases.baseInput)};`);
  }
  if (cases.negatives.length > 0) {
    const rows = cases.negatives.map((c) => ({ name: c.name, input: c.input, path: c.path }));
    out.push(table("derivedNegatives", "DerivedNegative", "Inputs derived from the input schema, each checked to be invalid at `path` when this file was generated.", rows));
  }
  if (cases.badOutputs.length > 0) {
    out.push(table("badOutputs", "BadOutput", "Outputs that break the output schema, as a faulty handler might return them.", cases.badOutputs.map((c) => ({ ...c }))));
  }
  return out;
}

/**
 * The helper functions `body` calls. Only those: a declared helper that no
 * case uses (issuePaths in a file without invalid cases, say) would fail a
 * consumer's build under noUnusedLocals.
 */
export function helpers(n: Names, body: string): string[] {
  const spy = `/**
 * Handlers in which this tool is a spy returning \`output\`. The spy returns
 * whatever a case says, including outputs the schema rejects, so it is not
 * typed as the tool's handler.
 */
function spyHandlers(output: unknown) {
  const handler = ${n.vi}.fn(async (_input: unknown) => output);
  return { handler, handlers: { [TOOL]: handler } as unknown as ${n.Handlers} };
}`;
  const paths = `/** The paths of a failure's issues; none for a success. */
function issuePaths(result: { ok: boolean; issues?: readonly { path: string }[] }): string[] {
  return result.ok ? [] : (result.issues ?? []).map((issue) => issue.path);
}`;
  const used = (name: string, text: string) => (new RegExp(`\\b${name}\\(`).test(body) ? [text] : []);
  if (n.handlers === undefined) return [...used("spyHandlers", spy), ...used("issuePaths", paths)];
  const real = `/** The real handlers, with this tool's handler wrapped in a spy that calls through. */
function realHandlers() {
  const all = ${n.handlers} as unknown as Record<string, unknown>;
  const real = all[TOOL];
  if (typeof real !== "function") throw new Error(\`the handlers module exports no handler for \${TOOL}\`);
  const handler = ${n.vi}.fn(real as (...args: unknown[]) => unknown);
  return { handler, handlers: { ...all, [TOOL]: handler } as unknown as ${n.Handlers} };
}`;
  return [...used("spyHandlers", spy), ...used("issuePaths", paths), ...used("realHandlers", real)];
}

export function examplesBlock(cases: ContractCases, n: Names): string | undefined {
  const parts: string[] = [];
  if (cases.valid.length > 0) {
    parts.push(`for (const example of validExamples) {
  ${n.it}(\`\${example.name}: succeeds with the handler's output, and the handler gets the input with defaults applied\`, async () => {
    const spy = spyHandlers(example.output);
    const result = await ${n.execute}(TOOL, example.input, spy.handlers);
    ${n.expect}(result).toEqual({ ok: true, data: example.output });
    ${n.expect}(spy.handler).toHaveBeenCalledTimes(1);
    ${n.expect}(spy.handler.mock.calls[0]?.[0]).toEqual(example.resolvedInput);
  });
}`);
  }
  if (cases.validInputOnly.length > 0) {
    parts.push(`for (const example of validInputs) {
  ${n.it}(\`\${example.name}: passes the input validator\`, async () => {
    const { validateInput } = await ${n.loadValidators}(contract);
    ${n.expect}(validateInput(structuredClone(example.input))).toBe(true);
  });
}`);
  }
  if (cases.invalidExamples.length > 0) {
    parts.push(`for (const example of invalidExamples) {
  ${n.it}(\`\${example.name}: gives INVALID_INPUT at \${example.paths.join(", ")}, and the handler is never called\`, async () => {
    const spy = spyHandlers(undefined);
    const result = await ${n.execute}(TOOL, example.input, spy.handlers);
    ${n.expect}(result).toMatchObject({ ok: false, code: "INVALID_INPUT" });
    ${n.expect}(issuePaths(result)).toEqual(${n.expect}.arrayContaining([...example.paths]));
    ${n.expect}(spy.handler).not.toHaveBeenCalled();
  });
}`);
  }
  return parts.length === 0 ? undefined : `${n.describe}("examples", () => {\n${parts.join("\n\n")}\n});`;
}

export function negativesBlock(cases: ContractCases, n: Names): string | undefined {
  if (cases.negatives.length === 0) return undefined;
  return `${n.describe}("negatives derived from the input schema", () => {
  for (const negative of derivedNegatives) {
    ${n.it}(\`\${negative.name}: gives INVALID_INPUT at "\${negative.path}", and the handler is never called\`, async () => {
      const spy = spyHandlers(undefined);
      const result = await ${n.execute}(TOOL, negative.input, spy.handlers);
      ${n.expect}(result).toMatchObject({ ok: false, code: "INVALID_INPUT" });
      ${n.expect}(issuePaths(result)).toContain(negative.path);
      ${n.expect}(spy.handler).not.toHaveBeenCalled();
    });
  }
});`;
}

export function badOutputsBlock(cases: ContractCases, n: Names): string | undefined {
  if (cases.badOutputs.length === 0) return undefined;
  return `${n.describe}("handler output that breaks the output schema", () => {
  for (const bad of badOutputs) {
    ${n.it}(\`\${bad.name}: gives INVALID_OUTPUT, and the output never reaches the caller\`, async () => {
      const spy = spyHandlers(bad.output);
      const result = await ${n.execute}(TOOL, validInput, spy.handlers);
      ${n.expect}(result).toMatchObject({ ok: false, code: "INVALID_OUTPUT", retryable: false });
      ${n.expect}(result).not.toHaveProperty("data");
      // What was wrong with the output goes to the trace only.
      ${n.expect}(result).not.toHaveProperty("issues");
      ${n.expect}(spy.handler).toHaveBeenCalledTimes(1);
    });
  }
});`;
}

export function toolsListBlock(n: Names): string {
  return `${n.describe}("tools/list", () => {
  ${n.it}("serves exactly the compiled schemas, annotations and _meta over MCP", async () => {
    const server = ${n.createServer}(spyHandlers(undefined).handlers);
    const client = new ${n.Client}({ name: "toolc-contract-test", version: "1.0.0" });
    const [clientTransport, serverTransport] = ${n.InMemoryTransport}.createLinkedPair();
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    try {
      const { tools } = await client.listTools();
      ${n.expect}(tools.map((tool) => tool.name)).toEqual([TOOL]);
      const [served] = tools;
      ${n.expect}(served?.inputSchema).toStrictEqual(contract.inputSchema);
      ${n.expect}(served?.outputSchema).toStrictEqual(contract.outputSchema);
      ${n.expect}(served?.annotations).toStrictEqual(contract.annotations);
      ${n.expect}(served?._meta).toStrictEqual(contract.meta);
      ${n.expect}(served?.title).toBe(contract.title);
      ${n.expect}(served?.description).toBe(contract.description);
    } finally {
      await client.close();
      await server.close();
    }
  });
});`;
}

/** With --handlers: every example once more, through the consumer's real handler. */
export function realHandlersBlock(cases: ContractCases, n: Names): string | undefined {
  if (n.handlers === undefined) return undefined;
  const parts: string[] = [];
  const valid = cases.valid.length > 0 ? "validExamples" : cases.validInputOnly.length > 0 ? "validInputs" : undefined;
  if (valid !== undefined) {
    // A real handler may return other data than the example shows; what it must do is succeed within the contract.
    parts.push(`for (const example of ${valid}) {
  ${n.it}(\`\${example.name}: succeeds, with output the output schema accepts\`, async () => {
    const real = realHandlers();
    const result = await ${n.execute}(TOOL, example.input, real.handlers);
    ${n.expect}(result).toMatchObject({ ok: true });
    if (result.ok) ${n.expect}((await ${n.loadValidators}(contract)).validateOutput(structuredClone(result.data))).toBe(true);
    ${n.expect}(real.handler).toHaveBeenCalledTimes(1);
  });
}`);
  }
  if (cases.invalidExamples.length > 0) {
    parts.push(`for (const example of invalidExamples) {
  ${n.it}(\`\${example.name}: gives INVALID_INPUT, and the real handler is never called\`, async () => {
    const real = realHandlers();
    const result = await ${n.execute}(TOOL, example.input, real.handlers);
    ${n.expect}(result).toMatchObject({ ok: false, code: "INVALID_INPUT" });
    ${n.expect}(issuePaths(result)).toEqual(${n.expect}.arrayContaining([...example.paths]));
    ${n.expect}(real.handler).not.toHaveBeenCalled();
  });
}`);
  }
  return parts.length === 0 ? undefined : `${n.describe}("examples through the real handlers", () => {\n${parts.join("\n\n")}\n});`;
}
