/**
 * Every server scenario of @modelcontextprotocol/conformance 0.1.11, sorted
 * into the ones a toolc server must pass and the ones outside what toolc
 * serves, each with the reason. The conformance test fails when a required
 * scenario fails, when an expected failure starts passing, and when the
 * suite runs a scenario listed in neither.
 */

export const SUITE_VERSION = "0.1.11";

export const REQUIRED: readonly string[] = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "json-schema-2020-12",
  "dns-rebinding-protection",
];

const NO_RESOURCES = "toolc serves tools only: no resources/list, resources/read, templates or subscriptions";
const NO_PROMPTS = "toolc serves tools only: no prompts/list or prompts/get";
const NO_SAMPLING = "a handler cannot call back into the client's model (sampling/createMessage): a tool's result depends on its input alone";
const NO_ELICITATION = "a handler cannot ask the user for input (elicitation/create): a tool's result depends on its input alone";
const STATELESS_HTTP = "toolc serves Streamable HTTP statelessly, so it issues no session ID and keeps no stream to resume or poll (SEP-1699); it scales out behind any load balancer instead";

/** Scenario → why a toolc server does not pass it. */
export const EXPECTED_FAILURES: Readonly<Record<string, string>> = {
  "completion-complete": "toolc serves tools only; completion/complete completes prompt and resource-template arguments, which it does not serve",
  "tools-call-sampling": NO_SAMPLING,
  "tools-call-elicitation": NO_ELICITATION,
  "elicitation-sep1034-defaults": NO_ELICITATION,
  "elicitation-sep1330-enums": NO_ELICITATION,
  "server-sse-polling": STATELESS_HTTP,
  "server-sse-multiple-streams": STATELESS_HTTP,
  "resources-list": NO_RESOURCES,
  "resources-read-text": NO_RESOURCES,
  "resources-read-binary": NO_RESOURCES,
  "resources-templates-read": NO_RESOURCES,
  "resources-subscribe": NO_RESOURCES,
  "resources-unsubscribe": NO_RESOURCES,
  "prompts-list": NO_PROMPTS,
  "prompts-get-simple": NO_PROMPTS,
  "prompts-get-with-args": NO_PROMPTS,
  "prompts-get-embedded-resource": NO_PROMPTS,
  "prompts-get-with-image": NO_PROMPTS,
};
