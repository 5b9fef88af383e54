/**
 * A model-written script (fixtures/orders-script.ts.txt) in workerd with no
 * network (its global outbound allows no address) and one binding, the
 * tools: its calls reach the generated executor on the host and stay
 * validated (INVALID_INPUT arrives as a typed ToolCallError), while its
 * `fetch` of a listening server and its `node:fs` import fail.
 */
import { describe, expect, it } from "vitest";
import { createDemoHandlers } from "../../demo/handlers.js";
import { codeModeRuntime, orderScript, useCodeModeSandbox } from "./script.js";
import { runInWorkerd } from "./workerd-sandbox.js";

const sandbox = useCodeModeSandbox();

describe("a script in workerd with only the tools binding", () => {
  it("calls the tools through the executor, gets INVALID_INPUT as ToolCallError, and reaches neither the network nor a file", async () => {
    const { handlers, store } = createDemoHandlers();
    const run = await runInWorkerd({
      runtime: codeModeRuntime(sandbox.dir, "module"),
      names: sandbox.codemode.codeModeTools,
      script: orderScript(sandbox.target.url),
      call: sandbox.codemode.codeModeHost(handlers),
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
    expect(sandbox.target.requests()).toBe(0);
    expect(store.customers.size).toBeGreaterThan(0);
  }, 60_000);
});
