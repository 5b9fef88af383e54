/**
 * Policy rules: what a tool does, rather than what it accepts. A more severe
 * effect or a tool that is no longer idempotent breaks callers that retry or
 * run it unattended; a shorter timeout, fewer retries or a new rejection
 * reason are warnings; versions are reported so a breaking change can be
 * matched with its bump. Content kinds are output the caller receives, so a
 * new kind is a warning, like a new rejection reason; icons and a stated
 * dialect change what tools/list serves but not what a call does. A tool
 * that now reaches an open world (MCP's openWorldHint) breaks hosts that run
 * closed-world tools unattended, as a more severe effect does. A scope a call
 * newly needs breaks every caller whose token lacks it, and a call that now
 * needs the user's approval breaks every client that cannot ask for it (and
 * every unattended run). Deprecation is
 * reported; a sunset moved earlier is a warning to callers who planned on it.
 * A rate limit added or tightened refuses calls the old one let through, but
 * with a retryable RATE_LIMITED and nothing run: a warning, like a shorter
 * timeout. Whether the provider exports defer the tool to tool search
 * (`loading`) changes what a model is sent, not what a call does.
 */
import type { ContentKind, Effect, RateLimitIR, SourceLocation, ToolIR } from "../ir.js";
import type { YamlSource } from "../load/index.js";
import type { Level, PolicyRule } from "./rules.js";

export interface PolicyFinding {
  readonly rule: PolicyRule;
  readonly level: Level;
  readonly message: string;
  readonly at: SourceLocation;
}

const SEVERITY: Record<Effect, number> = { read: 0, write: 1, destructive: 2 };

/** The key when the file writes it, else the tool's name: a default has no line of its own. */
function locateKey(file: YamlSource, path: readonly (string | number)[], atKey = false): SourceLocation {
  let node: unknown = file.data;
  for (const segment of path) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, segment)) return file.locate(["name"]);
    node = (node as Record<string | number, unknown>)[segment];
  }
  return file.locate(path, atKey ? { key: true } : undefined);
}

const ANY_KIND = "any kind";

/** What the contract lets a handler attach; absent `content:` means any kind. */
function kindsText(kinds: readonly ContentKind[] | undefined): string {
  return kinds === undefined ? ANY_KIND : kinds.length === 0 ? "none" : kinds.join(", ");
}

/** `content:` kinds: one finding per kind added or removed, or one for a move to or from "any kind". */
function compareContent(base: ToolIR, head: ToolIR, at: SourceLocation): PolicyFinding[] {
  const before = base.content;
  const after = head.content;
  if (before === undefined && after === undefined) return [];
  if (before === undefined || after === undefined) {
    const widened = after === undefined;
    const message = `content kinds ${kindsText(before)} → ${kindsText(after)}`;
    return [
      widened
        ? { rule: "content-kind-added", level: "warning", message: `${message}: callers may now receive any kind of block`, at }
        : { rule: "content-kind-removed", level: "info", message, at },
    ];
  }
  const out: PolicyFinding[] = [];
  for (const kind of after) {
    if (!before.includes(kind))
      out.push({
        rule: "content-kind-added",
        level: "warning",
        message: `content kind ${kind} added: callers that handle every declared kind must handle it`,
        at,
      });
  }
  for (const kind of before) {
    if (!after.includes(kind)) out.push({ rule: "content-kind-removed", level: "info", message: `content kind ${kind} removed`, at });
  }
  return out;
}

/**
 * `scopes`, with the config's default applied (normalize does): a scope
 * added refuses callers whose tokens do not carry it (403 insufficient_scope),
 * so it breaks them; a scope removed lets more callers in.
 */
function compareScopes(base: ToolIR, head: ToolIR, at: SourceLocation): PolicyFinding[] {
  const before = new Set(base.scopes ?? []);
  const after = new Set(head.scopes ?? []);
  const out: PolicyFinding[] = [];
  for (const scope of after) {
    if (!before.has(scope))
      out.push({
        rule: "scope-added",
        level: "breaking",
        message: `scope ${scope} now required: callers whose tokens lack it are refused (403 insufficient_scope)`,
        at,
      });
  }
  for (const scope of before) if (!after.has(scope)) out.push({ rule: "scope-removed", level: "info", message: `scope ${scope} no longer required`, at });
  return out;
}

/**
 * `confirm`: every call now waits for the user's approval, which a client
 * without form elicitation (or MCP 2026-07-28's input requests) cannot give,
 * so its calls are refused with CONFIRMATION_UNAVAILABLE.
 */
function compareConfirm(base: ToolIR, head: ToolIR, at: SourceLocation): PolicyFinding[] {
  if ((base.confirm ?? false) === (head.confirm ?? false)) return [];
  if (head.confirm)
    return [
      {
        rule: "confirm-added",
        level: "breaking",
        message:
          "confirm false → true: every call now waits for the user's approval; clients that cannot ask for it, and unattended runs, are refused (CONFIRMATION_UNAVAILABLE)",
        at,
      },
    ];
  // On a destructive tool the approval was the last guard before something is deleted: a reviewer must see it go.
  if (head.effect === "destructive")
    return [{ rule: "confirm-removed", level: "warning", message: "confirm true → false: destructive calls no longer wait for the user's approval", at }];
  return [{ rule: "confirm-removed", level: "info", message: "confirm true → false: calls no longer wait for the user's approval", at }];
}

const rateLimitText = (limit: RateLimitIR | undefined): string =>
  limit === undefined ? "none" : `${limit.calls} calls per ${limit.windowSeconds} s per ${limit.per}`;

/**
 * `rateLimit`, with the config's default applied (normalize does). Tighter
 * is any of: fewer calls, a longer window, or counted per OAuth client (every
 * user of a client sharing one counter) where it was per subject; a change
 * that loosens one and tightens another is tighter for some callers, so it
 * counts as tightened.
 */
function compareRateLimit(base: ToolIR, head: ToolIR, at: SourceLocation): PolicyFinding[] {
  const before = base.rateLimit;
  const after = head.rateLimit;
  const change = `rateLimit ${rateLimitText(before)} → ${rateLimitText(after)}`;
  if (rateLimitText(before) === rateLimitText(after)) return [];
  if (before === undefined)
    return [{ rule: "rate-limit-added", level: "warning", message: `${change}: calls over it are now refused (RATE_LIMITED, retryable)`, at }];
  if (after === undefined) return [{ rule: "rate-limit-removed", level: "info", message: change, at }];
  const tighter = after.calls < before.calls || after.windowSeconds > before.windowSeconds || (before.per === "subject" && after.per === "client");
  if (tighter)
    return [
      { rule: "rate-limit-tightened", level: "warning", message: `${change}: a caller within the old limit may now be refused (RATE_LIMITED, retryable)`, at },
    ];
  return [{ rule: "rate-limit-loosened", level: "info", message: change, at }];
}

/** `loading`, with the config's globs applied (normalize does): whether the provider exports send the tool with every request. */
function compareLoading(base: ToolIR, head: ToolIR, at: SourceLocation): PolicyFinding[] {
  const before = base.loading ?? "eager";
  const after = head.loading ?? "eager";
  if (before === after) return [];
  const what =
    after === "deferred"
      ? "the provider exports no longer send it with every request; models find it through tool search"
      : "the provider exports send it with every request again";
  return [{ rule: "loading-changed", level: "info", message: `loading ${before} → ${after}: ${what}`, at }];
}

/** Icons and `$schema` as tools/list serves them. */
function compareListing(base: ToolIR, head: ToolIR, at: (path: readonly (string | number)[]) => SourceLocation): PolicyFinding[] {
  const out: PolicyFinding[] = [];
  if (JSON.stringify(base.icons ?? []) !== JSON.stringify(head.icons ?? [])) {
    out.push({
      rule: "icons-changed",
      level: "info",
      message: `icons ${base.icons?.length ?? 0} → ${head.icons?.length ?? 0}, or their fields changed`,
      at: at(["icons"]),
    });
  }
  const dialect = (t: ToolIR): string => (typeof t.inputSchema.$schema === "string" ? t.inputSchema.$schema : "(not stated)");
  if (dialect(base) !== dialect(head)) {
    out.push({
      rule: "dialect-changed",
      level: "info",
      message: `$schema ${dialect(base)} → ${dialect(head)}: served schemas mean the same, since 2020-12 is MCP's default`,
      at: at(["$schema"]),
    });
  }
  return out;
}

/** `openWorld`, as served in openWorldHint. */
function compareOpenWorld(base: ToolIR, head: ToolIR, at: SourceLocation): PolicyFinding[] {
  if (base.openWorld === head.openWorld) return [];
  if (head.openWorld)
    return [
      {
        rule: "open-world-added",
        level: "breaking",
        message:
          "openWorld false → true: the tool may now reach systems outside its own (openWorldHint); hosts that run closed-world tools unattended would now let it",
        at,
      },
    ];
  return [{ rule: "open-world-removed", level: "info", message: "openWorld true → false: the tool no longer reaches outside its own systems", at }];
}

const deprecationText = (t: ToolIR): string => (t.deprecated === true ? "" : `: ${t.deprecated}`);

/** `deprecated` and `sunset`: the tool's lifecycle as served in its `_meta`. */
function compareLifecycle(base: ToolIR, head: ToolIR, at: (path: readonly (string | number)[]) => SourceLocation): PolicyFinding[] {
  const out: PolicyFinding[] = [];
  if (head.deprecated !== undefined && base.deprecated === undefined) {
    const sunset = head.sunset === undefined ? "" : `, and may be removed from ${head.sunset}`;
    out.push({ rule: "tool-deprecated", level: "info", message: `tool \`${head.name}\` deprecated${sunset}${deprecationText(head)}`, at: at(["deprecated"]) });
  }
  if (head.deprecated === undefined && base.deprecated !== undefined)
    out.push({ rule: "tool-reactivated", level: "info", message: `tool \`${head.name}\` is no longer deprecated`, at: at(["name"]) });
  if (base.sunset !== undefined && head.sunset !== undefined && base.sunset !== head.sunset) {
    const earlier = head.sunset < base.sunset;
    const message = `sunset ${base.sunset} → ${head.sunset}${earlier ? ": callers that planned on the old day have less time" : ""}`;
    out.push({ rule: earlier ? "sunset-moved-earlier" : "sunset-moved-later", level: earlier ? "warning" : "info", message, at: at(["sunset"]) });
  }
  if (base.sunset !== undefined && head.sunset === undefined && head.deprecated !== undefined) {
    out.push({
      rule: "sunset-moved-later",
      level: "info",
      message: `sunset ${base.sunset} removed: the tool stays deprecated, with no day set for its removal`,
      at: at(["deprecated"]),
    });
  }
  return out;
}

/**
 * A tool in the base and not in the head. Callers were told they may lose a
 * deprecated tool from its sunset on; before that day, or without one, the
 * removal breaks them.
 */
export function toolRemoval(tool: ToolIR, today: string): { rule: "tool-removed" | "tool-removed-after-sunset"; level: Level; message: string } {
  if (tool.deprecated !== undefined && tool.sunset !== undefined && tool.sunset <= today) {
    return { rule: "tool-removed-after-sunset", level: "info", message: `tool \`${tool.name}\` removed after its sunset (${tool.sunset})` };
  }
  const why =
    tool.deprecated === undefined
      ? ""
      : tool.sunset === undefined
        ? " (deprecated, but with no sunset: callers were given no day)"
        : ` before its sunset (${tool.sunset})`;
  return { rule: "tool-removed", level: "breaking", message: `tool \`${tool.name}\` removed${why}` };
}

export function comparePolicy(base: ToolIR, head: ToolIR, baseFile: YamlSource, headFile: YamlSource): PolicyFinding[] {
  const out: PolicyFinding[] = [];
  const at = (path: readonly (string | number)[], atKey = false): SourceLocation => locateKey(headFile, path, atKey);
  if (SEVERITY[head.effect] > SEVERITY[base.effect])
    out.push({ rule: "effect-more-severe", level: "breaking", message: `effect ${base.effect} → ${head.effect}`, at: at(["effect"]) });
  if (SEVERITY[head.effect] < SEVERITY[base.effect])
    out.push({ rule: "effect-less-severe", level: "info", message: `effect ${base.effect} → ${head.effect}`, at: at(["effect"]) });
  if (base.idempotent && !head.idempotent)
    out.push({ rule: "idempotent-removed", level: "breaking", message: "no longer idempotent: callers that retry may apply it twice", at: at(["idempotent"]) });
  if (!base.idempotent && head.idempotent) out.push({ rule: "idempotent-added", level: "info", message: "now idempotent", at: at(["idempotent"]) });
  out.push(...compareOpenWorld(base, head, at(["openWorld"])), ...compareLifecycle(base, head, at));
  if (head.timeoutMs < base.timeoutMs)
    out.push({ rule: "timeout-shortened", level: "warning", message: `timeoutMs ${base.timeoutMs} → ${head.timeoutMs}`, at: at(["timeoutMs"]) });
  if (head.timeoutMs > base.timeoutMs)
    out.push({ rule: "timeout-lengthened", level: "info", message: `timeoutMs ${base.timeoutMs} → ${head.timeoutMs}`, at: at(["timeoutMs"]) });
  if (head.retry.attempts < base.retry.attempts)
    out.push({
      rule: "retries-reduced",
      level: "warning",
      message: `retry.attempts ${base.retry.attempts} → ${head.retry.attempts}`,
      at: at(["retry", "attempts"]),
    });
  if (head.retry.attempts > base.retry.attempts)
    out.push({
      rule: "retries-increased",
      level: "info",
      message: `retry.attempts ${base.retry.attempts} → ${head.retry.attempts}`,
      at: at(["retry", "attempts"]),
    });
  if (head.idempotencyKey !== base.idempotencyKey) {
    out.push({
      rule: "idempotency-key-changed",
      level: "warning",
      message: `idempotencyKey ${base.idempotencyKey ?? "(none)"} → ${head.idempotencyKey ?? "(none)"}`,
      at: at(["idempotencyKey"]),
    });
  }
  const baseReasons = new Set(base.errors.map((e) => e.code));
  const headReasons = new Set(head.errors.map((e) => e.code));
  for (const code of headReasons) {
    if (!baseReasons.has(code))
      out.push({
        rule: "error-reason-added",
        level: "warning",
        message: `rejection reason ${code} added: callers that handle every reason must handle it`,
        at: at(["errors", code], true),
      });
  }
  for (const code of baseReasons) {
    if (!headReasons.has(code))
      out.push({ rule: "error-reason-removed", level: "info", message: `rejection reason ${code} removed`, at: locateKey(baseFile, ["errors", code], true) });
  }
  out.push(...compareScopes(base, head, at(["scopes"])), ...compareConfirm(base, head, at(["confirm"])));
  out.push(...compareRateLimit(base, head, at(["rateLimit"])), ...compareLoading(base, head, at(["loading"])));
  out.push(...compareContent(base, head, at(["content"])), ...compareListing(base, head, at));
  if (head.version > base.version)
    out.push({ rule: "version-bumped", level: "info", message: `version ${base.version} → ${head.version}`, at: at(["version"]) });
  if (head.version < base.version)
    out.push({ rule: "version-lowered", level: "warning", message: `version ${base.version} → ${head.version}`, at: at(["version"]) });
  return out;
}
