// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The generated contract tests' one piece of code: it turns a tool's case
 * table (worked out and checked when the test file was generated) into
 * vitest `describe`/`it` calls. The test file passes vitest's functions in,
 * so this module depends on no test framework, only on the MCP SDK the rest
 * of the runtime uses.
 */
import { Client, InMemoryTransport, type Transport } from "./sdk-testing.js";
import type { AnyToolContract } from "./contract.js";
import { hasWithheld, withhold } from "./sensitive.js";
import { legacyOutputSchema } from "./legacy-output.js";
import { loadValidators } from "./validators.js";

/** The assertions used here; vitest's `expect` has them all. */
export interface Assertion {
  toEqual(expected: unknown): void;
  toStrictEqual(expected: unknown): void;
  toBe(expected: unknown): void;
  toMatchObject(expected: object): void;
  toContain(item: unknown): void;
  toHaveProperty(property: string): void;
  readonly not: Assertion;
}

/** vitest's `it`: a case, or (`skip`) one declared and reported as skipped. */
export interface TestCase {
  (name: string, body: () => Promise<void>): void;
  readonly skip: (name: string, body: () => Promise<void>) => void;
}

/** vitest's `describe`, `it` and `expect`, as the test file imports them. */
export interface TestFramework {
  readonly describe: (name: string, body: () => void) => void;
  readonly it: TestCase;
  readonly expect: (actual: unknown, message?: string) => Assertion;
}

/** What the tests pass `execute`: the approval a confirmed tool's call needs (runtime/approval.ts). */
export interface TestCallOptions {
  readonly confirm?: () => boolean;
}

/** The server side the tools/list test connects to. */
export interface ConnectableServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** The generated index's entry points under test, and with --handlers the consumer's handlers. */
export interface GeneratedApi<K extends string, H> {
  readonly contracts: { readonly [P in K]: AnyToolContract };
  readonly execute: (
    tool: K,
    input: unknown,
    handlers: H,
    options?: TestCallOptions,
  ) => Promise<unknown>;
  readonly createServer: (handlers: H) => ConnectableServer;
  readonly handlers?: H;
}

export interface ValidExample {
  readonly name: string;
  readonly input: unknown;
  /** What the handler must receive: the input with defaults applied. */
  readonly resolvedInput: unknown;
  /** What the spy handler returns, so what the caller must get. */
  readonly output: unknown;
}

export interface ValidInput {
  readonly name: string;
  readonly input: unknown;
}

export interface InvalidExample {
  readonly name: string;
  readonly input: unknown;
  /** Paths that must be among the INVALID_INPUT issues. */
  readonly paths: readonly string[];
}

export interface RejectedExample {
  readonly name: string;
  readonly input: unknown;
  /** What the handler must receive: the input with defaults applied. */
  readonly resolvedInput: unknown;
  /** The declared error the handler rejects with. */
  readonly reason: string;
}

export interface DerivedNegative {
  readonly name: string;
  readonly input: unknown;
  /** The issue path that must be reported. */
  readonly path: string;
}

export interface BadOutput {
  readonly name: string;
  readonly output: unknown;
}

export interface ContentKindCases {
  readonly input: unknown;
  readonly output: unknown;
  /** One block of each declared kind: attached together, all must follow the output. */
  readonly declared: readonly unknown[];
  /** One block of each undeclared kind: attached alone, each must fail the call. */
  readonly undeclared: readonly unknown[];
}

/** One tool's cases. A kind with no cases is left out. */
export interface ContractTestTable<K extends string> {
  readonly tool: K;
  /** The contract's valid examples (one without an output gets a minimal valid one). */
  readonly validExamples?: readonly ValidExample[];
  /** Valid examples without an output (none could be made): checked with the input validator only. */
  readonly validInputs?: readonly ValidInput[];
  readonly invalidExamples?: readonly InvalidExample[];
  /** Examples the handler turns down: REJECTED with their reason. */
  readonly rejectedExamples?: readonly RejectedExample[];
  /** A valid input; the bad-output cases send it. */
  readonly validInput?: unknown;
  /** Inputs derived from the input schema, each checked to be invalid at `path` when the table was generated. */
  readonly derivedNegatives?: readonly DerivedNegative[];
  /** Outputs that break the output schema, as a faulty handler might return them. */
  readonly badOutputs?: readonly BadOutput[];
  /** For a contract that declares its content kinds. */
  readonly contentKinds?: ContentKindCases;
  /**
   * Why the consumer's real handler does not run here (a destructive or
   * confirmed tool the config's `runInTests` does not list): its examples
   * are declared skipped, and its invalid examples run against a stand-in.
   */
  readonly heldBack?: string;
}

/**
 * Every call the tests make is approved: a spy has no effect to confirm, and
 * a real handler runs only where the config lets it (`heldBack` unset).
 */
const APPROVE: TestCallOptions = { confirm: () => true };

/** A handler that records its calls. A plain function rather than a framework spy, so nothing here needs vitest's types. */
interface Spy {
  readonly calls: unknown[][];
  readonly fn: (...args: unknown[]) => unknown;
}

function spy(body: (...args: unknown[]) => unknown): Spy {
  const calls: unknown[][] = [];
  return {
    calls,
    fn: (...args: unknown[]) => (calls.push(args), body(...args)),
  };
}

/** The paths of a failure's issues; none for a success or a result without issues. */
function issuePaths(result: unknown): string[] {
  if (typeof result !== "object" || result === null) return [];
  const issues: unknown = (result as { issues?: unknown }).issues;
  if (!Array.isArray(issues)) return [];
  return issues
    .map((issue: unknown) =>
      typeof issue === "object" && issue !== null
        ? (issue as { path?: unknown }).path
        : undefined,
    )
    .filter((path): path is string => typeof path === "string");
}

/** What a call came to, as the assertions compare it: small enough that a failure shows it whole. */
function outcomeOf(result: unknown): {
  ok: unknown;
  code?: unknown;
  reason?: unknown;
} {
  const r = (typeof result === "object" && result !== null ? result : {}) as {
    ok?: unknown;
    code?: unknown;
    reason?: unknown;
  };
  if (r.ok === true) return { ok: true };
  return {
    ok: r.ok,
    code: r.code,
    ...(r.reason === undefined ? {} : { reason: r.reason }),
  };
}

/** The envelope as a failed assertion prints it: code, reason, message and issues, rather than a truncated object diff. */
function envelopeText(result: unknown): string {
  if (typeof result !== "object" || result === null)
    return `the call returned ${String(result)}`;
  const r = result as {
    ok?: unknown;
    code?: unknown;
    reason?: unknown;
    message?: unknown;
    issues?: unknown;
  };
  if (r.ok === true) return "the call succeeded";
  const issues = Array.isArray(r.issues)
    ? r.issues
        .map(
          (i: { path?: unknown; message?: unknown }) =>
            `${JSON.stringify(i.path)}: ${String(i.message)}`,
        )
        .join("; ")
    : "none";
  return `the call returned ${String(r.code)}${r.reason === undefined ? "" : ` (reason ${String(r.reason)})`}: ${String(r.message)}; issues: ${issues}`;
}

/** Expects the call to have come to `expected` ({ ok: true }, or a failure's code and reason), saying what it came to instead. */
function expectOutcome(
  t: TestFramework,
  result: unknown,
  expected: { ok: true } | { ok: false; code: string; reason?: string },
): void {
  t.expect(outcomeOf(result), envelopeText(result)).toEqual(expected);
}

interface Suite<K extends string, H> {
  readonly t: TestFramework;
  readonly api: GeneratedApi<K, H>;
  readonly table: ContractTestTable<K>;
}

/** Handlers in which this tool is a spy returning `output`; typed loosely because a case may return what the schema rejects. */
function spyHandlers<K extends string, H>(
  s: Suite<K, H>,
  output: unknown,
): { spy: Spy; handlers: H } {
  const handler = spy(async () => output);
  return {
    spy: handler,
    handlers: { [s.table.tool]: handler.fn } as unknown as H,
  };
}

/**
 * The consumer's handlers, with this tool's wrapped in a spy that calls
 * through; for a tool held back (`heldBack`), a spy that never does, so
 * that even a validator that let a bad input through could not run it.
 */
function realHandlers<K extends string, H>(
  s: Suite<K, H>,
): { spy: Spy; handlers: H } {
  const all = s.api.handlers as unknown as Record<string, unknown>;
  const real = all[s.table.tool];
  if (typeof real !== "function")
    throw new Error(
      `the handlers module exports no handler for ${s.table.tool}`,
    );
  if (s.table.heldBack !== undefined) {
    const standIn = spy(() => {
      throw new Error(`held back: ${s.table.heldBack}`);
    });
    return {
      spy: standIn,
      handlers: { ...all, [s.table.tool]: standIn.fn } as unknown as H,
    };
  }
  const handler = spy((...args: unknown[]) =>
    (real as (...args: unknown[]) => unknown)(...args),
  );
  return {
    spy: handler,
    handlers: { ...all, [s.table.tool]: handler.fn } as unknown as H,
  };
}

/** What a caller gets when the handler returns `output`: the same, less what the contract withholds. */
function delivered<K extends string, H>(
  s: Suite<K, H>,
  output: unknown,
): unknown {
  const paths = s.api.contracts[s.table.tool].sensitive.output;
  return hasWithheld(paths) ? withhold(structuredClone(output), paths) : output;
}

async function expectInvalidInput<K extends string, H>(
  s: Suite<K, H>,
  input: unknown,
  paths: readonly string[],
  run: { spy: Spy; handlers: H },
): Promise<void> {
  const result = await s.api.execute(
    s.table.tool,
    input,
    run.handlers,
    APPROVE,
  );
  expectOutcome(s.t, result, { ok: false, code: "INVALID_INPUT" });
  const reported = issuePaths(result);
  for (const path of paths) s.t.expect(reported, "issue paths").toContain(path);
  s.t.expect(run.spy.calls.length, "handler calls").toBe(0);
}

function examples<K extends string, H>(s: Suite<K, H>): void {
  const { t, api, table } = s;
  for (const example of table.validExamples ?? []) {
    t.it(
      `${example.name}: succeeds with the handler's output, and the handler gets the input with defaults applied`,
      async () => {
        const run = spyHandlers(s, example.output);
        const result = await api.execute(
          table.tool,
          example.input,
          run.handlers,
          APPROVE,
        );
        expectOutcome(t, result, { ok: true });
        t.expect(result).toEqual({
          ok: true,
          data: delivered(s, example.output),
        });
        t.expect(run.spy.calls.length, "handler calls").toBe(1);
        t.expect(run.spy.calls[0]?.[0], "handler input").toEqual(
          example.resolvedInput,
        );
      },
    );
  }
  for (const example of table.validInputs ?? []) {
    t.it(`${example.name}: passes the input validator`, async () => {
      const { validateInput } = await loadValidators(api.contracts[table.tool]);
      t.expect(validateInput(example.input)).toBe(true);
    });
  }
  for (const example of table.invalidExamples ?? []) {
    t.it(
      `${example.name}: gives INVALID_INPUT at ${example.paths.join(", ")}, and the handler is never called`,
      () =>
        expectInvalidInput(
          s,
          example.input,
          example.paths,
          spyHandlers(s, undefined),
        ),
    );
  }
  for (const example of table.rejectedExamples ?? []) {
    t.it(
      `${example.name}: a handler that rejects with ${example.reason} gives REJECTED with that reason`,
      async () => {
        const handler = spy(async (_input, ctx) =>
          (ctx as { reject(reason: string, message: string): unknown }).reject(
            example.reason,
            `rejected: ${example.reason}`,
          ),
        );
        const result = await api.execute(
          table.tool,
          example.input,
          {
            [table.tool]: handler.fn,
          } as unknown as H,
          APPROVE,
        );
        expectOutcome(t, result, {
          ok: false,
          code: "REJECTED",
          reason: example.reason,
        });
        t.expect(handler.calls[0]?.[0], "handler input").toEqual(
          example.resolvedInput,
        );
      },
    );
  }
}

function negatives<K extends string, H>(
  s: Suite<K, H>,
  cases: readonly DerivedNegative[],
): void {
  for (const negative of cases) {
    s.t.it(
      `${negative.name}: gives INVALID_INPUT at "${negative.path}", and the handler is never called`,
      () =>
        expectInvalidInput(
          s,
          negative.input,
          [negative.path],
          spyHandlers(s, undefined),
        ),
    );
  }
}

function badOutputs<K extends string, H>(
  s: Suite<K, H>,
  cases: readonly BadOutput[],
): void {
  const { t, api, table } = s;
  for (const bad of cases) {
    t.it(
      `${bad.name}: gives INVALID_OUTPUT, and the output never reaches the caller`,
      async () => {
        const run = spyHandlers(s, bad.output);
        const result = await api.execute(
          table.tool,
          table.validInput,
          run.handlers,
          APPROVE,
        );
        expectOutcome(t, result, { ok: false, code: "INVALID_OUTPUT" });
        t.expect(result).toMatchObject({ retryable: false });
        t.expect(result).not.toHaveProperty("data");
        // What was wrong with the output goes to the trace only.
        t.expect(result).not.toHaveProperty("issues");
        t.expect(run.spy.calls.length, "handler calls").toBe(1);
      },
    );
  }
}

/** Handlers in which this tool is a spy that attaches `blocks` and returns `output`. */
function attachingHandlers<K extends string, H>(
  s: Suite<K, H>,
  blocks: readonly unknown[],
  output: unknown,
): { spy: Spy; handlers: H } {
  const handler = spy(async (_input, ctx) => {
    for (const block of blocks)
      (ctx as { attach(block: unknown): void }).attach(block);
    return output;
  });
  return {
    spy: handler,
    handlers: { [s.table.tool]: handler.fn } as unknown as H,
  };
}

function contentKinds<K extends string, H>(
  s: Suite<K, H>,
  cases: ContentKindCases,
): void {
  const { t, api, table } = s;
  const kinds = (blocks: readonly unknown[]) =>
    blocks.map((b) => (b as { type?: unknown }).type).join(", ");
  t.it(
    `attaching a block of each declared kind (${kinds(cases.declared)}) succeeds, and the blocks follow the output`,
    async () => {
      const run = attachingHandlers(s, cases.declared, cases.output);
      t.expect(
        await api.execute(table.tool, cases.input, run.handlers, APPROVE),
      ).toEqual({
        ok: true,
        data: delivered(s, cases.output),
        content: cases.declared,
      });
    },
  );
  for (const block of cases.undeclared) {
    t.it(
      `attaching a ${kinds([block])} block, a kind the contract does not declare, gives INVALID_OUTPUT and sends no block`,
      async () => {
        const result = await api.execute(
          table.tool,
          cases.input,
          attachingHandlers(s, [block], cases.output).handlers,
          APPROVE,
        );
        t.expect(result).toMatchObject({
          ok: false,
          code: "INVALID_OUTPUT",
          retryable: false,
        });
        t.expect(result).not.toHaveProperty("content");
      },
    );
  }
}

function toolsList<K extends string, H>(s: Suite<K, H>): void {
  const { t, api, table } = s;
  t.it(
    "serves exactly the compiled schemas, annotations and _meta over MCP",
    async () => {
      const contract = api.contracts[table.tool];
      const server = api.createServer(spyHandlers(s, undefined).handlers);
      const client = new Client({
        name: "toolc-contract-test",
        version: "1.0.0",
      });
      const [clientTransport, serverTransport] =
        InMemoryTransport.createLinkedPair();
      await Promise.all([
        server.connect(serverTransport),
        client.connect(clientTransport),
      ]);
      try {
        const { tools } = await client.listTools();
        t.expect(tools.map((tool) => tool.name)).toEqual([table.tool]);
        const [served] = tools;
        t.expect(served?.inputSchema).toStrictEqual(contract.inputSchema);
        // The in-memory connection is 2025-era, so an output schema whose root is not an object comes wrapped as `{ result }`.
        t.expect(served?.outputSchema).toStrictEqual(
          legacyOutputSchema(contract.outputSchema),
        );
        t.expect(served?.annotations).toStrictEqual(contract.annotations);
        t.expect(served?._meta).toStrictEqual(contract.meta);
        t.expect(served?.title).toBe(contract.title);
        t.expect(served?.icons).toStrictEqual(contract.icons);
        t.expect(served?.description).toBe(contract.description);
      } finally {
        await client.close();
        await server.close();
      }
    },
  );
}

/**
 * With handlers: every example once more, through the consumer's real
 * handler. A held-back tool's valid and rejected examples, which would run
 * it, are declared skipped, with the reason in their names.
 */
function throughRealHandlers<K extends string, H>(s: Suite<K, H>): void {
  const { t, api, table } = s;
  const valid: readonly ValidInput[] =
    table.validExamples ?? table.validInputs ?? [];
  const runs =
    table.heldBack === undefined
      ? t.it
      : (name: string, body: () => Promise<void>) =>
          t.it.skip(`${name} (not run: ${table.heldBack})`, body);
  for (const example of valid) {
    // A real handler may return other data than the example shows; what it must do is succeed within the contract.
    runs(
      `${example.name}: succeeds, with output the output schema accepts`,
      async () => {
        const run = realHandlers(s);
        const result = await api.execute(
          table.tool,
          example.input,
          run.handlers,
          APPROVE,
        );
        expectOutcome(t, result, { ok: true });
        const data: unknown = (result as { data?: unknown }).data;
        const { validateOutput } = await loadValidators(
          api.contracts[table.tool],
        );
        t.expect(validateOutput(data), "output valid").toBe(true);
        t.expect(run.spy.calls.length, "handler calls").toBe(1);
      },
    );
  }
  for (const example of table.invalidExamples ?? []) {
    t.it(
      `${example.name}: gives INVALID_INPUT, and the real handler is never called`,
      () =>
        expectInvalidInput(s, example.input, example.paths, realHandlers(s)),
    );
  }
  for (const example of table.rejectedExamples ?? []) {
    runs(
      `${example.name}: gives REJECTED with reason ${example.reason}`,
      async () => {
        const run = realHandlers(s);
        expectOutcome(
          t,
          await api.execute(table.tool, example.input, run.handlers, APPROVE),
          { ok: false, code: "REJECTED", reason: example.reason },
        );
        t.expect(run.spy.calls.length, "handler calls").toBe(1);
      },
    );
  }
}

/**
 * Declares one tool's contract tests: a `describe` per kind of check, an
 * `it` per case, in the table's order. A kind without cases declares
 * nothing (vitest rejects an empty suite).
 */
export function runContractTests<K extends string, H>(
  t: TestFramework,
  api: GeneratedApi<K, H>,
  table: ContractTestTable<K>,
): void {
  const s: Suite<K, H> = { t, api, table };
  const section = (name: string, count: number, body: () => void) => {
    if (count > 0) t.describe(name, body);
  };
  t.describe(`${table.tool} contract`, () => {
    const exampleCount =
      (table.validExamples?.length ?? 0) +
      (table.validInputs?.length ?? 0) +
      (table.invalidExamples?.length ?? 0) +
      (table.rejectedExamples?.length ?? 0);
    section("examples", exampleCount, () => examples(s));
    section(
      "negatives derived from the input schema",
      table.derivedNegatives?.length ?? 0,
      () => negatives(s, table.derivedNegatives ?? []),
    );
    section(
      "handler output that breaks the output schema",
      table.badOutputs?.length ?? 0,
      () => badOutputs(s, table.badOutputs ?? []),
    );
    if (table.contentKinds !== undefined) {
      const cases = table.contentKinds;
      t.describe("content kinds", () => contentKinds(s, cases));
    }
    t.describe("tools/list", () => toolsList(s));
    if (api.handlers === undefined) return;
    const realCount =
      (table.validExamples ?? table.validInputs ?? []).length +
      (table.invalidExamples?.length ?? 0) +
      (table.rejectedExamples?.length ?? 0);
    section("examples through the real handlers", realCount, () =>
      throughRealHandlers(s),
    );
  });
}
