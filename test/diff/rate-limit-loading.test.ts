/**
 * `toolc diff` on a tool's rate limit and loading, each with the config's
 * default applied as generate applies it: a limit added or tightened refuses
 * calls the old one let through (a warning: RATE_LIMITED is retryable and
 * nothing runs), one removed or loosened is info; a change of loading is
 * info (what a model is sent, not what a call does).
 */
import { describe, expect, it } from "vitest";
import type { LoadingSetting } from "../../generator/config/loading.js";
import { EMPTY_DIFF_CONFIG } from "../../generator/diff/config.js";
import { diffContracts } from "../../generator/diff/index.js";
import { sideFromTexts } from "../../generator/diff/sources.js";
import type { NormalizeOptions } from "../../generator/normalize/index.js";

/** A tool with `own` as its line 5 (or none). */
const tool = (own: string | undefined): string =>
  ["name: t", "version: 1", "description: A tool.", "effect: read", ...(own === undefined ? [] : [own]), "input: { type: object }", "output: { type: object }", ""].join("\n");

function side(text: string, options: NormalizeOptions) {
  const result = sideFromTexts([{ source: "t.yaml", display: "t.yaml", text }], ".", options);
  if (!result.side) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return result.side;
}

/** The rate-limit and loading changes as `rule level line:col: message`, and the tools left without a version bump. */
function diff(base: string, head: string, baseOptions: NormalizeOptions = {}, headOptions: NormalizeOptions = baseOptions) {
  const result = diffContracts(side(base, baseOptions), side(head, headOptions), EMPTY_DIFF_CONFIG);
  const changes = result.changes.filter((c) => c.rule.startsWith("rate-limit-") || c.rule === "loading-changed");
  return { changes: changes.map((c) => `${c.rule} ${c.level} ${c.line}:${c.col}: ${c.message}`), unversioned: result.unversioned };
}

const limit = (calls: number, windowSeconds: number, per = "subject"): string => `rateLimit: { calls: ${calls}, windowSeconds: ${windowSeconds}, per: ${per} }`;
const configLimit = (calls: number, windowSeconds: number): NormalizeOptions => ({ rateLimit: { calls, windowSeconds, per: "subject" } });
const deferredByDefault: NormalizeOptions = { loading: { default: "deferred", deferred: [], eager: [], definitions: "definitions" } satisfies LoadingSetting };

const TIGHTER = "a caller within the old limit may now be refused (RATE_LIMITED, retryable)";

describe("rate limit rules", () => {
  const cases: [string, string | undefined, string | undefined, NormalizeOptions, NormalizeOptions, string[]][] = [
    ["a limit added", undefined, limit(20, 60), {}, {}, ["rate-limit-added warning 5:12: rateLimit none → 20 calls per 60 s per subject: calls over it are now refused (RATE_LIMITED, retryable)"]],
    ["a limit removed", limit(20, 60), undefined, {}, {}, ["rate-limit-removed info 1:7: rateLimit 20 calls per 60 s per subject → none"]],
    ["fewer calls", limit(20, 60), limit(10, 60), {}, {}, [`rate-limit-tightened warning 5:12: rateLimit 20 calls per 60 s per subject → 10 calls per 60 s per subject: ${TIGHTER}`]],
    ["a longer window", limit(20, 60), limit(20, 120), {}, {}, [`rate-limit-tightened warning 5:12: rateLimit 20 calls per 60 s per subject → 20 calls per 120 s per subject: ${TIGHTER}`]],
    ["counted per client, every user of it sharing one counter", limit(20, 60), limit(20, 60, "client"), {}, {}, [`rate-limit-tightened warning 5:12: rateLimit 20 calls per 60 s per subject → 20 calls per 60 s per client: ${TIGHTER}`]],
    ["more calls in a longer window: tighter for some callers", limit(20, 60), limit(30, 120), {}, {}, [`rate-limit-tightened warning 5:12: rateLimit 20 calls per 60 s per subject → 30 calls per 120 s per subject: ${TIGHTER}`]],
    ["more calls", limit(20, 60), limit(40, 60), {}, {}, ["rate-limit-loosened info 5:12: rateLimit 20 calls per 60 s per subject → 40 calls per 60 s per subject"]],
    ["a shorter window, per subject instead of per client", limit(20, 60, "client"), limit(20, 30), {}, {}, ["rate-limit-loosened info 5:12: rateLimit 20 calls per 60 s per client → 20 calls per 30 s per subject"]],
    ["the same limit, written out", limit(20, 60), "rateLimit: { windowSeconds: 60, calls: 20 }", {}, {}, []],
    ["the config's default tightened, for a tool with none of its own", undefined, undefined, configLimit(20, 60), configLimit(5, 60), [`rate-limit-tightened warning 1:7: rateLimit 20 calls per 60 s per subject → 5 calls per 60 s per subject: ${TIGHTER}`]],
    ["the config's default written into the contract", undefined, limit(20, 60), configLimit(20, 60), configLimit(20, 60), []],
  ];
  it.each(cases)("%s", (_name, base, head, baseOptions, headOptions, expected) => {
    expect(diff(tool(base), tool(head), baseOptions, headOptions).changes).toEqual(expected);
  });

  it("is never breaking: a tightened limit alone needs no version bump", () => {
    expect(diff(tool(undefined), tool(limit(1, 3600))).unversioned).toEqual([]);
  });
});

describe("loading rules", () => {
  const cases: [string, string | undefined, string | undefined, NormalizeOptions, NormalizeOptions, string[]][] = [
    ["deferred in the contract", undefined, "loading: deferred", {}, {}, ["loading-changed info 5:10: loading eager → deferred: the provider exports no longer send it with every request; models find it through tool search"]],
    ["eager again", "loading: deferred", undefined, {}, {}, ["loading-changed info 1:7: loading deferred → eager: the provider exports send it with every request again"]],
    ["deferred by the config's default", undefined, undefined, {}, deferredByDefault, ["loading-changed info 1:7: loading eager → deferred: the provider exports no longer send it with every request; models find it through tool search"]],
    ["the config's default written into the contract", undefined, "loading: deferred", deferredByDefault, deferredByDefault, []],
    ["eager written out", undefined, "loading: eager", {}, {}, []],
  ];
  it.each(cases)("%s", (_name, base, head, baseOptions, headOptions, expected) => {
    const result = diff(tool(base), tool(head), baseOptions, headOptions);
    expect(result.changes).toEqual(expected);
    expect(result.unversioned).toEqual([]);
  });
});
