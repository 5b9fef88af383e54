/**
 * A model-written script (fixtures/orders-script.ts.txt) in a Node.js process
 * with nothing granted by the permission model, on every Node.js the suite
 * has (the one running it, 22, 24, 26): its tool calls reach the generated
 * executor on the host and stay validated (INVALID_INPUT arrives as a typed
 * ToolCallError), while its `fetch` and its file read fail and the process
 * itself cannot read a file (node-sandbox.ts says how).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDemoHandlers } from "../../demo/handlers.js";
import { nodeRuntimes } from "../helpers/node-runtimes.js";
import { runInNodeSandbox } from "./node-sandbox.js";
import { codeModeRuntime, orderScript, useCodeModeSandbox } from "./script.js";

const sandbox = useCodeModeSandbox();

describe.each(nodeRuntimes())("a script in a Node.js $version process with no permission granted", ({ version, bin }) => {
  it("calls the tools through the executor, gets INVALID_INPUT as ToolCallError, and reaches neither the network nor a file", async () => {
    const major = Number(version.split(".")[0]);
    const { handlers } = createDemoHandlers();
    const run = await runInNodeSandbox({
      bin,
      major,
      runtime: codeModeRuntime(sandbox.dir, "script"),
      names: sandbox.codemode.codeModeTools,
      script: orderScript(sandbox.target.url),
      call: sandbox.codemode.codeModeHost(handlers),
      probeFile: join(sandbox.dir, "package.json"),
    });
    expect(run.outcome).toMatchObject({ ok: true });
    const value = (run.outcome as { value: Record<string, unknown> }).value;
    expect(value.paid).toEqual(["ord_1"]);
    expect(value.invalid).toEqual({ code: "INVALID_INPUT", effect: "none", paths: ["customerId"] });
    expect(value.network).toMatch(/^blocked: ReferenceError: fetch is not defined/);
    expect(value.file).toMatch(/^blocked: /);
    expect(run.calls).toEqual(["get_order", "get_order"]);
    expect(sandbox.target.requests()).toBe(0);
    // The process itself: no file read granted, and reading one is denied; Node.js 26 gates the network too.
    expect(run.probe.fsRead).toBe(false);
    expect(run.probe.readFile).toBe("ERR_ACCESS_DENIED");
    if (major >= 26) expect(run.probe.net).toBe(false);
  });
});
