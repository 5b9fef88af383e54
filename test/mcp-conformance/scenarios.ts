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

export type SdkLine = "SDK 2.x" | "SDK 1.x";

/**
 * A column of the results: the Node handler (`createHttpHandler`) per SDK
 * line, and the SDK 2.x tree through `createFetchHandler` on Node, on
 * workerd (no `nodejs_compat`), on Deno and on Bun, each run with the same
 * scenario table.
 */
export type Column = SdkLine | "SDK 2.x, fetch on Node" | "SDK 2.x, fetch on workerd" | "SDK 2.x, fetch on Deno" | "SDK 2.x, fetch on Bun";
const FETCH_COLUMNS: readonly Column[] = ["SDK 2.x, fetch on Node", "SDK 2.x, fetch on workerd", "SDK 2.x, fetch on Deno", "SDK 2.x, fetch on Bun"];

/** The columns a generation is run in: its SDK lines', and the fetch handler's where it covers SDK 2.x. */
export function columnsOf(generation: Generation): Column[] {
  return [...generation.lines, ...(generation.lines.includes("SDK 2.x") ? FETCH_COLUMNS : [])];
}

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

const OUTSIDE_2026: Readonly<Record<string, string>> = {
  "server-stateless":
    "three of its checks call tools that use client features: `test_missing_capability` must refuse a caller that did not declare the sampling capability with -32021 and HTTP 400 (`sep-2575-server-rejects-undeclared-capability`, `sep-2575-missing-capability-http-400`), and `test_streaming_elicitation` asks the user for input mid-call (`sep-2575-http-server-no-independent-requests-on-stream`); a toolc handler needs no client capability and cannot ask the user mid-call (a `confirm: true` tool is confirmed before its handler runs, through InputRequiredResult, never on the stream), so no toolc server has either tool. Its other checks (per-request `_meta`, server/discover, version and header errors, removed methods, no log without a requested level, subscriptions/listen) are required; its two list-changed checks are skipped, as toolc declares no `listChanged`",
  caching:
    "three of its checks ask for caching hints on prompts/list, resources/list and resources/templates/list (a fourth, on resources/read, is skipped without resources), which toolc does not serve: it serves tools only. Its tools/list checks are required",
  "json-schema-2020-12":
    "its SEP-2106 checks look for `allOf`/`anyOf`, `if`/`then`/`else` and `$anchor` in the tool's inputSchema, which the revision permits but does not require; `if`/`then`/`else` and `$anchor` are outside toolc's contract subset (TC030), so no contract declares the schema the scenario names. Its SEP-1613 checks (`$schema`, `$defs`, `additionalProperties` served as written) are required",
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

/** The server-stateless checks of what a toolc server does: per-request _meta, server/discover, version and header errors, removed methods, logging, subscriptions/listen. */
const STATELESS_CHECKS = [
  "sep-2575-http-server-error-jsonrpc-id",
  "sep-2575-request-meta-invalid-missing-meta",
  "sep-2575-request-meta-invalid-missing-protocol-version",
  "sep-2575-request-meta-invalid-missing-client-capabilities",
  "sep-2575-http-server-meta-invalid-400",
  "sep-2575-request-meta-client-info-optional",
  "sep-2575-server-implements-discover",
  "sep-2575-server-identifies-in-result-meta",
  "sep-2575-server-declares-prompts-in-discover",
  "sep-2575-discover-capabilities-match-handlers",
  "sep-2575-server-unsupported-version-error",
  "sep-2575-http-server-unsupported-version-400",
  "sep-2575-http-server-header-mismatch-400",
  "sep-2575-http-server-method-not-found-404-initialize",
  "sep-2575-http-server-method-not-found-404-ping",
  "sep-2575-http-server-method-not-found-404-logging-setlevel",
  "sep-2575-http-server-method-not-found-404-resources-subscribe",
  "sep-2575-http-server-method-not-found-404-resources-unsubscribe",
  "sep-2575-http-server-method-not-found-404",
  "sep-2575-server-no-log-without-loglevel",
  "sep-2575-server-sends-subscription-ack",
  "sep-2575-server-tags-subscription-id",
  "sep-2575-server-honors-notification-filter",
];

export const GENERATION_2026: Generation = {
  protocol: "2026-07-28",
  pkg: "mcp-conformance-2026",
  suite: "0.2.0-alpha.12",
  serverArgs: ["--requirements", "2026-07-28"],
  listArgs: ["--requirements", "2026-07-28"],
  lines: ["SDK 2.x"],
  required: [
    "tools-list",
    ...TOOL_CALLS,
    "dns-rebinding-protection",
    "server-sse-multiple-streams",
    "http-header-validation",
    "http-custom-header-server-validation",
    // A toolc server never returns an InputRequiredResult: it answers malformed inputResponses with a JSON-RPC error, as the scenario allows.
    "input-required-result-validate-input",
    "input-required-result-unsupported-methods",
  ],
  expectedFailures: OUTSIDE_2026,
  requiredChecks: {
    "server-stateless": STATELESS_CHECKS,
    caching: ["sep-2549-tools-list-caching-hints", "sep-2549-ttl-non-negative", "sep-2549-cache-scope-valid", "wire-schema-valid"],
    "json-schema-2020-12": ["json-schema-2020-12-tool-found", "json-schema-2020-12-$schema", "json-schema-2020-12-$defs", "json-schema-2020-12-additionalProperties", "wire-schema-valid"],
  },
};

export const GENERATIONS: readonly Generation[] = [GENERATION_2025, GENERATION_2026];

/** Every scenario a generation classifies, sorted. */
export function classified(generation: Generation): string[] {
  return [...generation.required, ...Object.keys(generation.expectedFailures)].sort();
}
