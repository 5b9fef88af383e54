/**
 * Runs a model-written script in a Node.js process under the permission
 * model with nothing granted (`--permission`, `--experimental-permission` on
 * 20): no file read or write, no child process, no worker, no addon, and on
 * Node.js 26 no network (`--allow-net` is new there; 20 to 24 do not gate
 * the network). Inside that process the script runs in a `vm` context whose
 * global has no prototype and nothing Node adds (no `fetch`, `process`,
 * `require`), holding only the code-mode runtime (runtime/codemode.ts,
 * compiled), `tools` and `ToolCallError`. No object of Node's realm enters
 * the context: the one bridge out is a function with no prototype that
 * takes strings and returns nothing, so `constructor` walks reach no
 * `Function` of the outer realm (the way out of a `vm` context).
 *
 * Each tool call crosses as a JSON line on stdout to this (the host's)
 * process, which runs it through `call` (the generated `codeModeHost`: the
 * executor) and answers on stdin.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** Run inside the context: `tools` over the one bridge out, and the function the host's answers come back through. */
const INSTALL = `(bridge, names) => {
  const pending = new Map();
  let next = 0;
  const call = (tool, input) => new Promise((resolve) => {
    const id = next++;
    pending.set(id, resolve);
    bridge(id, tool, JSON.stringify(input === undefined ? null : input));
  });
  globalThis.tools = codeModeFunctions(JSON.parse(names), call);
  globalThis.ToolCallError = ToolCallError;
  return (id, json) => { const resolve = pending.get(id); pending.delete(id); if (resolve) resolve(JSON.parse(json)); };
}`;

/** The script's outcome as a string, made in the context, so nothing of it is an object of Node's realm. */
const SETTLE = `(p) => Promise.resolve(p).then(
  (v) => JSON.stringify({ ok: true, value: v }),
  (e) => JSON.stringify({ ok: false, error: e instanceof Error ? e.name + ": " + e.message : String(e) }))`;

/** The child's side, given to `node -e` so the process reads no file at all. */
const CHILD = `
const vm = require("node:vm");
const lines = require("node:readline").createInterface({ input: process.stdin });
const send = (message) => process.stdout.write(JSON.stringify(message) + "\\n");
const denied = (what) => { try { what(); return "allowed"; } catch (error) { return error.code ?? String(error); } };
const has = (scope) => { try { return process.permission.has(scope); } catch { return "unknown scope"; } };
let resolveCall;
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.kind === "result") return resolveCall(message.id, JSON.stringify(message.result));
  const probe = { fsRead: has("fs.read"), net: has("net"), readFile: denied(() => require("node:fs").readFileSync(message.probeFile)) };
  const context = vm.createContext(Object.create(null));
  vm.runInContext(message.runtime, context);
  const bridge = (id, tool, input) => {
    try { send({ kind: "call", id, tool: String(tool), input: typeof input === "string" ? input : "null" }); } catch {}
  };
  Object.setPrototypeOf(bridge, null);
  resolveCall = vm.runInContext(${JSON.stringify(INSTALL)}, context)(bridge, JSON.stringify(message.names));
  const settle = vm.runInContext(${JSON.stringify(SETTLE)}, context);
  let outcome;
  try {
    outcome = settle(vm.runInContext("(" + message.script + ")", context, { timeout: 5000 })());
  } catch (error) {
    outcome = Promise.resolve(JSON.stringify({ ok: false, error: String(error) }));
  }
  outcome.then((text) => { send({ kind: "done", probe, outcome: text }); lines.close(); });
});
`;

export interface SandboxRun {
  /** What the process was granted, and what reading `probeFile` from its own (outer) realm did. */
  readonly probe: { readonly fsRead: boolean; readonly net: boolean | string; readonly readFile: string };
  /** The script's return value, or the error it ended with. */
  readonly outcome: { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };
  /** The tool calls the host ran, in order. */
  readonly calls: readonly string[];
}

export interface SandboxOptions {
  /** The `node` to run. */
  readonly bin: string;
  /** Its major version: 20 takes `--experimental-permission`. */
  readonly major: number;
  /** runtime/codemode.ts compiled to a script (no exports). */
  readonly runtime: string;
  /** The generated `codeModeTools`. */
  readonly names: Readonly<Record<string, string>>;
  /** The script: an async arrow function's source. */
  readonly script: string;
  /** The host's side: the generated `codeModeHost(handlers)`. */
  readonly call: (tool: string, input: unknown) => Promise<unknown>;
  /** A file that exists, which the sandbox's process must not be able to read. */
  readonly probeFile: string;
}

export function runInNodeSandbox(options: SandboxOptions): Promise<SandboxRun> {
  const flag = options.major === 20 ? "--experimental-permission" : "--permission";
  const child = spawn(options.bin, [flag, "--no-warnings", "-e", CHILD], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const calls: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the sandbox did not finish: ${stderr}`));
    }, 30_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code}) before it finished: ${stderr}`));
    });
    createInterface({ input: child.stdout }).on("line", (line) => {
      const message = JSON.parse(line) as { kind: string; id: number; tool: string; input: string; probe: SandboxRun["probe"]; outcome: string };
      if (message.kind === "call") {
        calls.push(message.tool);
        void options.call(message.tool, JSON.parse(message.input)).then((result) => {
          child.stdin.write(`${JSON.stringify({ kind: "result", id: message.id, result })}\n`);
        });
        return;
      }
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.stdin.end();
      resolve({ probe: message.probe, outcome: JSON.parse(message.outcome) as SandboxRun["outcome"], calls });
    });
    child.stdin.write(
      `${JSON.stringify({ kind: "start", runtime: options.runtime, names: options.names, script: options.script, probeFile: options.probeFile })}\n`,
    );
  });
}
