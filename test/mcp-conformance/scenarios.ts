/**
 * The official conformance suite's server scenarios, per protocol
 * generation, sorted into the ones a toolc server must pass and the ones it
 * is expected to fail, each with the reason. The conformance test fails when
 * a required scenario fails, when an expected failure starts passing, and
 * when the suite runs a scenario listed in neither.
 *
 * - 2025-11-25: @modelcontextprotocol/conformance 0.1.16, the suite's latest
 *   release, whose every server scenario speaks 2025-06-18 or 2025-11-25
 *   (`conformance server --suite all`), against both MCP SDK lines.
 * - 2026-07-28: the release has no scenario for this revision, so this run
 *   uses the 0.2.0 prerelease (the `mcp-conformance-2026` alias) with
 *   `--requirements 2026-07-28`, the scenarios that revision requires frozen
 *   at its release, run at its wire; against the SDK 2.x line only, since
 *   SDK 1.x has no 2026-07-28 support.
 */

/** Whether the generated SDK 2.x server speaks 2026-07-28. Until it does, the scenarios that need it are expected failures; set it, and they are required. */
export const SERVES_2026_07_28 = false;

export type SdkLine = "SDK 2.x" | "SDK 1.x";

export interface Generation {
  /** The protocol revision the suite speaks in this run. */
  readonly protocol: "2025-11-25" | "2026-07-28";
  /** The installed package (by its name in package.json) and the version it pins. */
  readonly pkg: string;
  readonly suite: string;
  /** How `conformance server` picks the scenarios, and how `conformance list --server` names the same set. */
  readonly serverArgs: readonly string[];
  readonly listArgs: readonly string[];
  readonly lines: readonly SdkLine[];
  readonly required: readonly string[];
  /** Scenario → why a toolc server does not pass it. */
  readonly expectedFailures: Readonly<Record<string, string>>;
  /**
   * For scenarios that also test what toolc does not serve, and so stay
   * expected failures: the checks in them that test what toolc does serve,
   * which must succeed.
   */
  readonly requiredChecks: Readonly<Record<string, readonly string[]>>;
}

const NO_RESOURCES = "toolc serves tools only: no resources/list, resources/read, templates or subscriptions";
const NO_PROMPTS = "toolc serves tools only: no prompts/list or prompts/get";
const NO_COMPLETION = "toolc serves tools only; completion/complete completes prompt and resource-template arguments, which it does not serve";
const NO_SAMPLING = "a handler cannot call back into the client's model (sampling/createMessage): a tool's result depends on its input alone";
const NO_ELICITATION = "a handler cannot ask the user for input (elicitation/create): a tool's result depends on its input alone";
const STATELESS_HTTP = "toolc serves Streamable HTTP statelessly, so it issues no session ID and keeps no stream to resume or poll (SEP-1699); it scales out behind any load balancer instead";
const NO_INPUT_REQUESTS = "a handler cannot ask the client for input mid-call (SEP-2322 InputRequiredResult carrying elicitation, sampling or roots/list requests): a tool's result depends on its input alone";
const NO_TASKS = "the tasks extension (SEP-2663): toolc runs every call to completion within the request and creates no tasks";
const NOT_YET_2026 = "needs the generated server to speak 2026-07-28, which it does not yet: it answers `Unsupported protocol version` (SERVES_2026_07_28 in scenarios.ts)";

const RESOURCES = ["resources-list", "resources-read-text", "resources-read-binary", "resources-templates-read"];
const PROMPTS = ["prompts-list", "prompts-get-simple", "prompts-get-with-args", "prompts-get-embedded-resource", "prompts-get-with-image"];
const TOOL_CALLS = ["tools-call-simple-text", "tools-call-image", "tools-call-audio", "tools-call-embedded-resource", "tools-call-mixed-content", "tools-call-error", "tools-call-with-progress"];

const all = (names: readonly string[], reason: string): Record<string, string> => Object.fromEntries(names.map((n) => [n, reason]));

export const GENERATION_2025: Generation = {
  protocol: "2025-11-25",
  pkg: "@modelcontextprotocol/conformance",
  suite: "0.1.16",
  serverArgs: ["--suite", "all"],
  listArgs: [],
  lines: ["SDK 2.x", "SDK 1.x"],
  required: ["server-initialize", "ping", "logging-set-level", "tools-list", ...TOOL_CALLS, "tools-call-with-logging", "json-schema-2020-12", "dns-rebinding-protection"],
  expectedFailures: {
    "completion-complete": NO_COMPLETION,
    "tools-call-sampling": NO_SAMPLING,
    "tools-call-elicitation": NO_ELICITATION,
    "elicitation-sep1034-defaults": NO_ELICITATION,
    "elicitation-sep1330-enums": NO_ELICITATION,
    "server-sse-polling": STATELESS_HTTP,
    "server-sse-multiple-streams": STATELESS_HTTP,
    ...all([...RESOURCES, "resources-subscribe", "resources-unsubscribe"], NO_RESOURCES),
    ...all(PROMPTS, NO_PROMPTS),
  },
  requiredChecks: {},
};

/** 2026-07-28 scenarios that test only what toolc serves: required once the server speaks 2026-07-28. */
const NEEDS_2026_SERVER: Readonly<Record<string, string>> = {
  ...all(["tools-list", ...TOOL_CALLS, "dns-rebinding-protection", "server-sse-multiple-streams", "json-schema-2020-12", "input-required-result-unsupported-methods"], NOT_YET_2026),
  "http-header-validation": `${NOT_YET_2026}; it checks the Mcp-Method and Mcp-Name headers (SEP-2243)`,
  "http-custom-header-server-validation": `${NOT_YET_2026}; it checks \`x-mcp-header\` input properties (SEP-2243), so the fixture contracts need one`,
};

const OUTSIDE_2026: Readonly<Record<string, string>> = {
  "server-stateless": `${NOT_YET_2026}. Some of its checks also need a tool that requires the client's sampling capability, a tool that streams an elicitation request, or list-changed subscriptions, none of which a toolc server has; the checks toolc serves are listed in scenarios.ts and are required once it speaks 2026-07-28 (the no-log-without-level check needs a \`test_logging_tool\` in the fixture contracts)`,
  caching: `${NOT_YET_2026}. It also asks for caching hints on prompts/list, resources/list, resources/templates/list and resources/read, which toolc does not serve; its tools/list checks are required once it speaks 2026-07-28`,
  "completion-complete": NO_COMPLETION,
  ...all(RESOURCES, NO_RESOURCES),
  "sep-2164-resource-not-found": NO_RESOURCES,
  ...all(PROMPTS, NO_PROMPTS),
  ...all(
    ["basic-elicitation", "basic-sampling", "basic-list-roots", "request-state", "multiple-input-requests", "multi-round", "missing-input-response", "result-type", "tampered-state", "capability-check", "ignore-extra-params", "non-tool-request"].map((s) => `input-required-result-${s}`),
    NO_INPUT_REQUESTS,
  ),
  ...all(["lifecycle", "capability-negotiation", "wire-fields", "request-state-removal", "mrtr-input", "request-headers", "dispatch-and-envelope", "status-notifications", "required-task-error", "mrtr-composition"].map((s) => `tasks-${s}`), NO_TASKS),
};

/** The server-stateless checks of what a toolc server does: per-request _meta, server/discover, version and header errors, removed methods, logging. */
const STATELESS_CHECKS = [
  "sep-2575-http-server-error-jsonrpc-id",
  "sep-2575-request-meta-invalid-missing-meta",
  "sep-2575-request-meta-invalid-missing-protocol-version",
  "sep-2575-request-meta-invalid-missing-client-capabilities",
  "sep-2575-http-server-meta-invalid-400",
  "sep-2575-request-meta-client-info-optional",
  "sep-2575-server-implements-discover",
  "sep-2575-server-declares-prompts-in-discover",
  "sep-2575-discover-capabilities-match-handlers",
  "sep-2575-server-unsupported-version-error",
  "sep-2575-http-server-unsupported-version-400",
  "sep-2575-http-server-header-mismatch-400",
  "sep-2575-http-server-method-not-found-404-initialize",
  "sep-2575-http-server-method-not-found-404-ping",
  "sep-2575-http-server-method-not-found-404-logging-setlevel",
  "sep-2575-http-server-method-not-found-404",
  "sep-2575-server-no-log-without-loglevel",
];

export const GENERATION_2026: Generation = {
  protocol: "2026-07-28",
  pkg: "mcp-conformance-2026",
  suite: "0.2.0-alpha.12",
  serverArgs: ["--requirements", "2026-07-28"],
  listArgs: ["--requirements", "2026-07-28"],
  lines: ["SDK 2.x"],
  // Passes already: the server answers malformed inputResponses with a JSON-RPC error, as the scenario allows.
  required: ["input-required-result-validate-input", ...(SERVES_2026_07_28 ? Object.keys(NEEDS_2026_SERVER) : [])],
  expectedFailures: { ...(SERVES_2026_07_28 ? {} : NEEDS_2026_SERVER), ...OUTSIDE_2026 },
  requiredChecks: SERVES_2026_07_28 ? { "server-stateless": STATELESS_CHECKS, caching: ["sep-2549-tools-list-caching-hints", "sep-2549-ttl-non-negative", "sep-2549-cache-scope-valid"] } : {},
};

export const GENERATIONS: readonly Generation[] = [GENERATION_2025, GENERATION_2026];

/** Every scenario a generation classifies, sorted. */
export function classified(generation: Generation): string[] {
  return [...generation.required, ...Object.keys(generation.expectedFailures)].sort();
}
