/**
 * Handlers for the conformance fixture contracts, written as a toolc user
 * writes them: against the generated `Handlers` type, through the documented
 * handler context only (`ctx.attach`, `ctx.progress`, `ctx.log`). Each one
 * returns what its scenario in @modelcontextprotocol/conformance asks for.
 */
import type { Handlers } from "./generated/index.js";
import { RED_PIXEL_PNG_BASE64, SILENT_WAV_BASE64 } from "./media.js";

const SIMPLE_TEXT = "This is a simple text response for testing.";

/** The scenarios ask for about 50 ms between notifications, so a client sees them arrive during the call. */
const STEP_MS = 50;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export const handlers: Handlers = {
  test_simple_text: (_input, ctx) => {
    ctx.attach({ type: "text", text: SIMPLE_TEXT });
    return { text: SIMPLE_TEXT };
  },

  test_image_content: (_input, ctx) => {
    ctx.attach({ type: "image", data: RED_PIXEL_PNG_BASE64, mimeType: "image/png" });
    return {};
  },

  test_audio_content: (_input, ctx) => {
    ctx.attach({ type: "audio", data: SILENT_WAV_BASE64, mimeType: "audio/wav" });
    return {};
  },

  test_embedded_resource: (_input, ctx) => {
    ctx.attach({
      type: "resource",
      resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
    });
    return {};
  },

  test_multiple_content_types: (_input, ctx) => {
    ctx.attach({ type: "text", text: "Multiple content types test:" });
    ctx.attach({ type: "image", data: RED_PIXEL_PNG_BASE64, mimeType: "image/png" });
    ctx.attach({
      type: "resource",
      resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) },
    });
    return {};
  },

  test_tool_with_logging: async (_input, ctx) => {
    await ctx.log("info", "Tool execution started");
    await pause(STEP_MS, ctx.signal);
    await ctx.log("info", "Tool processing data");
    await pause(STEP_MS, ctx.signal);
    await ctx.log("info", "Tool execution completed");
    return { messages: 3 };
  },

  // Logs on every call: what reaches the client is the runtime's decision, from the level the request asked for.
  test_logging_tool: async (_input, ctx) => {
    await ctx.log("info", "test_logging_tool called");
    return { messages: 1 };
  },

  test_mcp_param_header: (input) => ({ region: input.region }),

  test_tool_with_progress: async (_input, ctx) => {
    await ctx.progress({ progress: 0, total: 100 });
    await pause(STEP_MS, ctx.signal);
    await ctx.progress({ progress: 50, total: 100 });
    await pause(STEP_MS, ctx.signal);
    await ctx.progress({ progress: 100, total: 100 });
    return { steps: 3 };
  },

  test_error_handling: () => {
    throw new Error("This tool intentionally returns an error for testing");
  },

  json_schema_2020_12_tool: (input) => ({
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.address?.city === undefined ? {} : { city: input.address.city }),
  }),
};
