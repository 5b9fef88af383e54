/**
 * A model-written script (fixtures/orders-script.ts.txt) in workerd with no
 * network (its global outbound allows no address) and one binding, the
 * tools: its calls reach the generated executor on the host and stay
 * validated (INVALID_INPUT arrives as a typed ToolCallError), while its
 * `fetch` of a listening server and its `node:fs` import fail.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoHandlers } from "../../demo/handlers.js";
import { codeModeProject } from "./project.js";
import { codeModeRuntime, listeningServer, orderScript } from "./script.js";
import { runInWorkerd } from "./workerd-sandbox.js";

interface CodeModeModule {
  codeModeHost(handlers: unknown): (tool: string, input: unknown) => Promise<unknown>;
  codeModeTools: Record<string, string>;
}

let dir: string;
let codemode: CodeModeModule;
let target: Awaited<ReturnType<typeof listeningServer>>;

beforeAll(async () => {
  dir = await codeModeProject();
  codemode = (await import(pathToFileURL(join(dir, "generated/codemode.ts")).href)) as CodeModeModule;
  target = await listeningServer();
}, 120_000);
afterAll(async () => {
  await target.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a script in workerd with only the tools binding", () => {
  it("calls the tools through the executor, gets INVALID_INPUT as ToolCallError, and reaches neither the network nor a file", async () => {
    const { handlers, store } = createDemoHandlers();
    const run = await runInWorkerd({
      runtime: codeModeRuntime(dir, "module"),
      names: codemode.codeModeTools,
      script: orderScript(target.url),
      call: codemode.codeModeHost(handlers),
    });
    expect(run.outcome).toMatchObject({ ok: true });
    const value = (run.outcome as { value: Record<string, unknown> }).value;
    expect(value.paid).toEqual(["ord_1"]);
    expect(value.invalid).toEqual({ code: "INVALID_INPUT", effect: "none", paths: ["customerId"] });
    expect(value.network).toMatch(/^blocked: /);
    // What workerd says when the global outbound refuses the address.
    expect(value.network).toMatch(/^blocked: Error: internal error; reference = /);
    // workerd's node:fs is its own virtual file system: the host's files are not in it.
    expect(value.file).toBe("blocked: Error: no such file or directory, readAll '/etc/hostname'");
    expect(run.calls).toEqual(["get_order", "get_order"]);
    expect(target.requests()).toBe(0);
    expect(store.customers.size).toBeGreaterThan(0);
  }, 60_000);
});
