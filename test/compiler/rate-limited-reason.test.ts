/**
 * `RATE_LIMITED` is the reason of a call over toolc's own rate limit, and a
 * contract may declare it too: the OpenAPI import does, for its upstream's
 * 429, which means the same to a caller (wait, then retry). Declared, the
 * contract's description stands and toolc adds no second entry; not
 * declared, a rate-limited tool gets toolc's. The confirmation reasons stay
 * reserved.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import { loadDefinitionsFromTexts } from "../../generator/load/index.js";
import { RATE_LIMIT_ERROR } from "../../generator/normalize/access.js";
import { normalize, type NormalizeOptions } from "../../generator/normalize/index.js";

const contract = (extra: string[]): string =>
  ["name: ping", "version: 1", "description: A tool.", "effect: read", ...extra, "input: { type: object }", "output: { type: object }", ""].join("\n");

function compile(text: string, options: NormalizeOptions = {}) {
  const { ir, diagnostics } = normalize(loadDefinitionsFromTexts([{ source: "ping.yaml", display: "definitions/ping.yaml", text }]), options);
  return { errors: ir.tools[0]?.errors ?? [], diagnostics: diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic) };
}

const UPSTREAM = ["errors:", "  RATE_LIMITED: { description: The API answered 429. }"];

describe("the RATE_LIMITED reason", () => {
  it("may be declared by a contract with no rate limit (an upstream's 429)", () => {
    const { errors, diagnostics } = compile(contract(UPSTREAM));
    expect(diagnostics).toEqual([]);
    expect(errors.map((e) => [e.code, e.description])).toEqual([["RATE_LIMITED", "The API answered 429."]]);
  });

  it("declared beside a rate limit, is one entry with the contract's description", () => {
    const { errors, diagnostics } = compile(contract([...UPSTREAM, "rateLimit: { calls: 5, windowSeconds: 60 }"]));
    expect(diagnostics).toEqual([]);
    expect(errors.map((e) => [e.code, e.description])).toEqual([["RATE_LIMITED", "The API answered 429."]]);
  });

  it("is added by toolc to a rate-limited tool that does not declare it, from the config's default too", () => {
    expect(compile(contract(["rateLimit: { calls: 5, windowSeconds: 60 }"])).errors).toEqual([RATE_LIMIT_ERROR]);
    expect(compile(contract([]), { rateLimit: { calls: 5, windowSeconds: 60, per: "subject" } }).errors).toEqual([RATE_LIMIT_ERROR]);
    expect(compile(contract([])).errors).toEqual([]);
  });

  it("leaves the confirmation reasons reserved, located at the key", () => {
    const { diagnostics } = compile(contract(["errors:", "  CONFIRMATION_DECLINED: { description: No. }"]));
    expect(diagnostics).toEqual([
      "definitions/ping.yaml:6:3: error TC003: rejection reason `CONFIRMATION_DECLINED` is reserved for confirmed calls (`confirm: true`); name it otherwise",
    ]);
  });
});
