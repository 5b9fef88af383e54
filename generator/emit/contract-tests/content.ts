/**
 * Content-kind cases for a tool that declares `content:` kinds: one small,
 * well-formed block of each kind, so the generated tests can attach the
 * declared ones (they must come back after the output) and each undeclared
 * one (it must fail the call as invalid output).
 */
import type { ContentKind, JsonObject, JsonValue, ToolIR } from "../../ir.js";

const ALL_KINDS: readonly ContentKind[] = ["text", "image", "audio", "resource", "resource_link"];

/** A 1×1 PNG and an empty 8 kHz WAV: real files, so a client that decodes them can. */
const SAMPLES: Readonly<Record<ContentKind, JsonObject>> = {
  text: { type: "text", text: "A sample text block." },
  image: { type: "image", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", mimeType: "image/png" },
  audio: { type: "audio", data: "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=", mimeType: "audio/wav" },
  resource: { type: "resource", resource: { uri: "test://toolc/sample", mimeType: "text/plain", text: "A sample resource." } },
  resource_link: { type: "resource_link", uri: "test://toolc/sample", name: "sample" },
};

export interface ContentCases {
  /** A valid input and the output the spy returns with the blocks. */
  readonly input: JsonValue;
  readonly output: JsonValue;
  /** One block of each declared kind: attached together, they must all come back. */
  readonly declared: readonly JsonObject[];
  /** One block of each kind the contract leaves out: each alone must fail the call. */
  readonly undeclared: readonly JsonObject[];
}

/** Only for a tool that declares its kinds, and only when a valid input and output exist to carry the blocks. */
export function contentCases(tool: ToolIR, input: JsonValue | undefined, output: JsonValue | undefined): ContentCases | undefined {
  const declared = tool.content;
  if (declared === undefined || input === undefined || output === undefined) return undefined;
  return {
    input,
    output,
    declared: declared.map((kind) => SAMPLES[kind]),
    undeclared: ALL_KINDS.filter((kind) => !declared.includes(kind)).map((kind) => SAMPLES[kind]),
  };
}
