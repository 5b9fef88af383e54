/**
 * The options every conformance fixture server is made with, on every entry
 * (Node's createHttpHandler, createFetchHandler on Node and on workerd).
 * logLevel info: the suite's logging scenario is a 2025-era client that
 * sends logging/setLevel on one POST and calls the tool on the next, which
 * over stateless HTTP meets a fresh server; by default such a client gets no
 * log messages. 2026-07-28 requests are not affected (they carry their
 * level themselves).
 */
export const SERVE_OPTIONS = { name: "toolc-conformance-sdk2", version: "1.0.0", path: "/mcp", logLevel: "info" } as const;
