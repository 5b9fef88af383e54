/**
 * The files `toolc init` creates in a project: the config, one example
 * contract, and a handler and server starter that compile against it. Each
 * is a function of the folders it must point at, so the relative imports
 * and the `$schema` lines resolve wherever the project keeps things. The
 * TypeScript starters are printed by the file builder (their imports are
 * symbols, their values literals), each clause on one line: they are the
 * project's files, in its own style once its formatter has run.
 */
import { code, FileBuilder, typeSymbol, valueSymbol, type Code, type ImportSymbol } from "../printer/file-builder.js";
import { literal } from "../printer/literal.js";

/** The example contract's tool name; the starter handler implements it. */
export const EXAMPLE_TOOL = "greet";

export interface ConfigTemplate {
  readonly definitions: string;
  readonly out: string;
  /** Present when init also creates the handlers module. */
  readonly handlers?: string;
  /** The MCP SDK line, written out so the output does not change when package.json does. */
  readonly mcpSdk: 1 | 2;
}

/** Where each MCP SDK line keeps the stdio server transport. */
const STDIO_SERVER_MODULE = { 1: "@modelcontextprotocol/sdk/server/stdio.js", 2: "@modelcontextprotocol/server/stdio" } as const;

/** A path as a YAML scalar: plain when that is unambiguous, else double-quoted (JSON is valid YAML). */
function yamlPath(path: string): string {
  return /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/.test(path) ? path : JSON.stringify(path);
}

export function configText(c: ConfigTemplate): string {
  const lines = [
    "# yaml-language-server: $schema=node_modules/toolc/schema/config.schema.json",
    "# Read by every toolc command (generate, check, generate --watch, import); flags override it.",
    "# Paths are relative to this file.",
    "",
    "# The contracts: one *.yaml file per tool.",
    `definitions: ${yamlPath(c.definitions)}`,
    "# toolc's output: commit it, never edit it; `toolc check` in CI keeps it fresh.",
    `out: ${yamlPath(c.out)}`,
    "# Contract tests (vitest) go to test/toolc when vitest is in package.json; set a folder, or false for none.",
    "# tests: test/toolc",
    "# The MCP SDK line the generated code imports: 1 is @modelcontextprotocol/sdk, 2 is @modelcontextprotocol/server and client.",
    `mcp: { sdk: ${c.mcpSdk} }`,
  ];
  if (c.handlers !== undefined) {
    lines.push(
      "# The contract tests also run every example through the handlers this module exports: those calls really happen.",
      `handlers: ${yamlPath(c.handlers)}`,
      "# A destructive or confirmed tool's handler runs in the tests only when listed here.",
      "# runInTests: [destructive, confirmed]",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** `schemaPath`: the contract meta-schema as a path relative to the definitions folder. */
export function exampleContractText(schemaPath: string, view = false): string {
  return `# yaml-language-server: $schema=${schemaPath}
# An example contract; docs: node_modules/toolc/docs/contract-format.md
name: ${EXAMPLE_TOOL}
version: 1
title: Greet someone
description: Say hello to someone by name.
effect: read
timeoutMs: 5000
retry: { attempts: 3, backoffMs: 100 }
input:
  type: object
  properties:
    name:
      type: string
      minLength: 1
      maxLength: 100
      description: "Who to greet, e.g. Ada"
    excited:
      type: boolean
      default: false
      description: End with an exclamation mark.
  required: [name]
output:
  type: object
  properties:
    greeting: { type: string }
  required: [greeting]
errors:
  NAME_NOT_ALLOWED:
    description: The name is on the deny list; ask for another.
examples:
  - name: greets by name
    input: { name: Ada }
    output: { greeting: "Hello, Ada." }
  - name: a name is required
    input: {}
    invalid: [name]
${view ? EXAMPLE_UI : ""}`;
}

/** The example view, relative to the definitions folder (`toolc init --view`). */
export const EXAMPLE_VIEW = `views/${EXAMPLE_TOOL}.html`;

const EXAMPLE_UI = `# A view the host shows with the result (MCP Apps); docs: node_modules/toolc/docs/apps.md
ui:
  source: ${EXAMPLE_VIEW}
  title: Greeting
  description: The greeting, large.
`;

/**
 * The example view: one HTML file that speaks the MCP Apps protocol
 * (JSON-RPC 2.0 over postMessage with the host) by hand, so it needs no
 * bundler. A view on the extension's App class uses the typed wrapper
 * toolc generates in views/ and is bundled into the file \`source\` names.
 */
export function exampleViewText(): string {
  return `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>Greeting</title>
  </head>
  <body>
    <h1 id="greeting">waiting for the greeting</h1>
    <script type="module">
      // The view's side of the MCP Apps protocol, by hand: initialize, then show each tool result the host sends.
      const send = (message) => window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
      window.addEventListener("message", (event) => {
        const message = event.data;
        if (event.source !== window.parent || message?.jsonrpc !== "2.0") return;
        if (message.method === "ui/notifications/tool-result") {
          const result = message.params;
          // A failure carries toolc's envelope in _meta["toolc/failure"]: its code says what went wrong.
          document.getElementById("greeting").textContent =
            result.isError === true ? "failed: " + (result._meta?.["toolc/failure"]?.code ?? "FAILED") : result.structuredContent.greeting;
        } else if (message.id === 1 && message.method === undefined) {
          send({ method: "ui/notifications/initialized" });
        } else if (message.id !== undefined && message.method !== undefined) {
          send({ id: message.id, result: {} }); // ping, ui/resource-teardown
        }
      });
      send({
        id: 1,
        method: "ui/initialize",
        params: { appInfo: { name: "${EXAMPLE_TOOL} view", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" },
      });
    </script>
  </body>
</html>
`;
}

/** A starter's text: its imports, in the order given, then its statements; nothing above them. */
function starter(imports: readonly ImportSymbol[], declared: readonly string[], statements: readonly Code[]): string {
  const file = new FileBuilder("starter.ts", "", { importOrder: "used", wrap: false });
  file.reserve(...declared);
  for (const symbol of imports) file.use(symbol);
  file.add(...statements);
  return file.toText();
}

/** `indexModule`: the generated index as the handlers module imports it (e.g. "./generated/index.js"). */
export function handlersText(indexModule: string): string {
  const handlers = typeSymbol("Handlers", indexModule);
  return starter(
    [handlers],
    ["handlers"],
    [
      code`/**
 * One handler per tool. Input arrives validated, with defaults applied, and
 * the value returned is validated against the contract's output schema.
 * Docs: node_modules/toolc/docs/runtime.md
 */
export const handlers: ${handlers} = {
  ${EXAMPLE_TOOL}: async (input, ctx) => {
    if (input.name === "nobody") return ctx.reject("NAME_NOT_ALLOWED", "That name is not allowed.");
    return { greeting: \`Hello, \${input.name}\${input.excited ? "!" : "."}\` };
  },
};`,
    ],
  );
}

/**
 * The server's trace listener: a line on stderr per call, and under it what a developer needs to
 * fix a failure: each output issue with its message (INVALID_OUTPUT), the input paths the caller
 * was told to fix (INVALID_INPUT), and what the handler threw, with its stack.
 */
function traceListener(traceEvent: ImportSymbol): Code {
  return code`// stdout carries the protocol on stdio, so log to stderr. Trace events never carry payload values.
function onTrace(e: ${traceEvent}): void {
  console.error(\`\${e.tool}@\${e.version} attempt=\${e.attempt} \${e.code} \${Math.round(e.durationMs)}ms\`);
  for (const issue of e.outputIssues ?? []) console.error(\`  output \${issue.path || "(root)"}: \${issue.message}\`);
  if (e.code === "INVALID_INPUT") console.error(\`  input to fix: \${e.issuePaths.map((p) => p || "(root)").join(", ")}\`);
  if (e.error !== undefined) console.error(e.error);
}`;
}

export function serverText(indexModule: string, handlersModule: string, name: string, version: string, mcpSdk: 1 | 2): string {
  const createServer = valueSymbol("createServer", indexModule);
  const traceEvent = typeSymbol("TraceEvent", indexModule);
  const handlers = valueSymbol("handlers", handlersModule);
  if (mcpSdk === 2) {
    const serveStdio = valueSymbol("serveStdio", STDIO_SERVER_MODULE[mcpSdk]);
    return starter(
      [serveStdio, createServer, traceEvent, handlers],
      ["onTrace"],
      [
        traceListener(traceEvent),
        code`// The SDK's stdio entry serves MCP 2026-07-28 and 2025-era clients; the server's name and version come from package.json.
${serveStdio}(() => ${createServer}(${handlers}, { onTrace }));`,
      ],
    );
  }
  const transport = valueSymbol("StdioServerTransport", STDIO_SERVER_MODULE[mcpSdk]);
  return starter(
    [transport, createServer, traceEvent, handlers],
    ["onTrace", "main"],
    [
      traceListener(traceEvent),
      code`async function main(): Promise<void> {
  const server = ${createServer}(${handlers}, { name: ${literal(name)}, version: ${literal(version)}, onTrace });
  await server.connect(new ${transport}());
}`,
      code`main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});`,
    ],
  );
}

export interface TsconfigTemplate {
  /** The folder holding the handlers, the server and the output, relative to the project; "." for the project itself. */
  readonly rootDir: string;
  /** What tsc compiles: the source folders, relative to the project. */
  readonly include: readonly string[];
}

/**
 * A tsconfig for `npm run build` (`tsc`): Node's module rules (NodeNext,
 * which follow package.json's `type`), strict, and Node's types, which
 * TypeScript 6 and later no longer load by default and the server starter
 * needs for `process`. Output goes to dist/, so `node dist/server.js` runs.
 */
export function tsconfigText(t: TsconfigTemplate): string {
  const config = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      types: ["node"],
      rootDir: t.rootDir,
      outDir: "dist",
    },
    include: t.include,
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
