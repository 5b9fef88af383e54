/**
 * `toolc/otel` as a consumer gets it: through the package's `exports`, from
 * the built dist/, type-checked together with the adapter's source under the
 * strictest flags on TypeScript 5.9, 6.0 and 7.0, and loaded by plain node. A
 * consumer who does not import it gets no file that needs @opentelemetry/api.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitRuntimeFiles } from "../../generator/emit/runtime-files.js";
import { STRICTEST } from "../consumers/fixtures.js";
import { TYPESCRIPTS } from "../helpers/typescripts.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const run = promisify(execFile);
/** The adapter's source, checked under the consumer's flags: its declaration file is what tsc emits from it. */
const ADAPTER_SOURCE = join(ROOT, "generator/otel/index.ts");

const CONSUMER = `import { trace } from "@opentelemetry/api";
import { otelOnTrace, recordSpan, type OtelTraceOptions, type ToolTraceEvent } from "toolc/otel";
import type { TraceEvent } from "./trace-event.js";

const options: OtelTraceOptions = { tracer: trace.getTracer("consumer"), next: (event) => void event.tool };
// The hook fits where the runtime's onTrace goes.
export const onTrace: (event: TraceEvent) => void = otelOnTrace(options);
const event: ToolTraceEvent = { tool: "get_order", version: 1, attempt: 1, durationMs: 3, code: "OK", effect: "none", issuePaths: [] };
recordSpan(trace.getTracer("consumer"), event);
`;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "toolc-otel-consumer-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "otel-consumer", private: true, type: "module" }));
  mkdirSync(join(dir, "node_modules/@opentelemetry"), { recursive: true });
  symlinkSync(ROOT, join(dir, "node_modules/toolc"), "dir");
  symlinkSync(join(ROOT, "node_modules/@opentelemetry/api"), join(dir, "node_modules/@opentelemetry/api"), "dir");
  writeFileSync(join(dir, "consumer.ts"), CONSUMER);
  // The runtime's own TraceEvent, as a generated folder carries it.
  writeFileSync(join(dir, "trace-event.ts"), `export type { TraceEvent } from ${JSON.stringify(join(ROOT, "generated/runtime/types.js"))};\n`);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a consumer importing toolc/otel", () => {
  for (const ts of TYPESCRIPTS) {
    it(`type-checks, with the adapter's source, under the strictest flags on TypeScript ${ts.version}`, async () => {
      const options = { target: "ES2022", lib: ["ES2023"], module: "NodeNext", moduleResolution: "NodeNext", ...STRICTEST, verbatimModuleSyntax: true, skipLibCheck: true, noEmit: true, types: ["node"], typeRoots: [join(ROOT, "node_modules/@types")] };
      const tsconfig = join(dir, `tsconfig.${ts.version}.json`);
      writeFileSync(tsconfig, JSON.stringify({ compilerOptions: options, files: ["consumer.ts", ADAPTER_SOURCE] }));
      const result = await run(process.execPath, [ts.bin, ...ts.args, "-p", tsconfig], { cwd: dir }).then(
        () => "",
        (e: { stdout?: string }) => e.stdout ?? String(e),
      );
      expect(result).toBe("");
    }, 120_000);
  }

  it("loads under plain node through the package's exports, and records a span", async () => {
    const script = `import { otelOnTrace } from "toolc/otel";
const ended = [];
const tracer = { startSpan: (name, options) => ({ setStatus() {}, end: () => ended.push({ name, attributes: options.attributes }) }) };
otelOnTrace({ tracer })({ tool: "t", version: 1, attempt: 1, durationMs: 1, code: "OK", effect: "none", issuePaths: [] });
console.log(JSON.stringify(ended));`;
    writeFileSync(join(dir, "smoke.mjs"), script);
    const { stdout } = await run(process.execPath, ["smoke.mjs"], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual([{ name: "execute_tool t", attributes: expect.objectContaining({ "gen_ai.tool.name": "t" }) }]);
  });
});

describe("a consumer not using it", () => {
  it("gets no generated file that mentions @opentelemetry, on either SDK line", () => {
    for (const line of [1, 2] as const) {
      const offenders = emitRuntimeFiles({ mcpSdk: line, tests: true, providers: true, auth: true }).filter((f) => f.text.includes("@opentelemetry"));
      expect(offenders.map((f) => f.path)).toEqual([]);
    }
    const onDisk: string[] = [];
    const walk = (d: string): void => {
      for (const name of readdirSync(d)) {
        const full = join(d, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (readFileSync(full, "utf8").includes("@opentelemetry")) onDisk.push(full);
      }
    };
    walk(join(ROOT, "generated"));
    expect(onDisk).toEqual([]);
  });
});
