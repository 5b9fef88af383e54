/**
 * What the catalog says about a tool besides its schemas: its effect, its
 * badges and its facts (policy, retry, timeout, where it came from). One
 * small function per field, so a field the IR gains is one function here.
 */
import type { Effect, ToolIR } from "../../ir.js";
import { badge, code, joined, text, type Fact, type Inline } from "./model.js";

export const EFFECT_WORDS: Readonly<Record<Effect, string>> = {
  read: "reads only; changes nothing",
  write: "changes state",
  destructive: "changes state and may destroy data; cannot be undone",
};

export function effectBadge(effect: Effect): Inline {
  return badge(effect, effect);
}

export function scopesOf(tool: ToolIR): readonly string[] {
  return tool.scopes ?? [];
}

/** The marks shown beside a tool's name, on its page and in the index. */
export function toolBadges(tool: ToolIR): Inline[] {
  const marks: (Inline | undefined)[] = [
    tool.deprecated === undefined ? undefined : badge("deprecated", "warning"),
    tool.sunset === undefined ? undefined : badge(`sunset ${tool.sunset}`, "warning"),
    tool.confirm === true ? badge("confirmed", "warning") : undefined,
    tool.idempotent ? badge("idempotent") : undefined,
    tool.openWorld ? badge("open world") : undefined,
    tool.idempotencyKey === undefined ? undefined : badge("idempotency key"),
    tool.ui?.view === undefined ? undefined : badge("view"),
    appOnly(tool) ? badge("app only", "warning") : undefined,
  ];
  return marks.filter((m): m is Inline => m !== undefined);
}

/** Only a view (MCP Apps) may call the tool: the host keeps it from the model. */
function appOnly(tool: ToolIR): boolean {
  const visibility = tool.ui?.visibility;
  return visibility !== undefined && !visibility.includes("model");
}

/** The tool's view (MCP Apps) in words, and who may call the tool; none without a `ui:` section. */
function viewFacts(tool: ToolIR): Fact[] {
  const facts: Fact[] = [];
  const view = tool.ui?.view;
  if (view !== undefined) {
    const words = [view.title, view.description].filter((w): w is string => w !== undefined).join(": ");
    facts.push({ label: "View", value: [text(words === "" ? "an interactive view " : `${words} `), code(view.uri)] });
    if (view.calls.length > 0)
      facts.push({
        label: "View calls",
        value: joined(
          view.calls.map((c) => [code(c)]),
          ", ",
        ),
      });
  }
  if (tool.ui?.visibility !== undefined) {
    const who = appOnly(tool)
      ? "a view on this server only; hidden from the model"
      : tool.ui.visibility.includes("app")
        ? "the model and a view"
        : "the model only";
    facts.push({ label: "Callable by", value: [text(who)] });
  }
  return facts;
}

const ms = (n: number): string => (n % 1000 === 0 ? `${n / 1000} s` : `${n} ms`);

function retryFacts(tool: ToolIR): Fact[] {
  const r = tool.retry;
  if (r.attempts <= 1) return [{ label: "Retry", value: [text("none: one attempt")] }];
  return [
    { label: "Retry", value: [text(`up to ${r.attempts} attempts in all, after a transient error or a timeout`)] },
    { label: "Backoff", value: [text(`${ms(r.backoffMs)}, doubling per attempt with full jitter, at most ${ms(r.maxBackoffMs)} per delay`)] },
  ];
}

/** The tool's behaviour, as the executor and the served hints apply it. */
export function policyFacts(tool: ToolIR): Fact[] {
  const facts: (Fact | undefined)[] = [
    { label: "Effect", value: [effectBadge(tool.effect), text(` ${EFFECT_WORDS[tool.effect]}`)] },
    { label: "Idempotent", value: [text(tool.idempotent ? "yes: repeating a call has no further effect" : "no")] },
    tool.idempotencyKey === undefined
      ? undefined
      : { label: "Idempotency key", value: [text("input property "), code(tool.idempotencyKey), text(": calls with the same key are applied once")] },
    { label: "Open world", value: [text(tool.openWorld ? "yes: reaches outside systems" : "no")] },
    scopesOf(tool).length === 0
      ? undefined
      : {
          label: "Scopes",
          value: joined(
            scopesOf(tool).map((s) => [code(s)]),
            ", ",
          ),
        },
    tool.confirm === true
      ? { label: "Confirmed", value: [text("yes: the user approves each call, with its exact arguments, before the handler runs")] }
      : undefined,
    ...rateLimitFacts(tool),
    tool.deprecated === undefined ? undefined : { label: "Deprecated", value: [text(tool.deprecated === true ? "yes" : tool.deprecated)] },
    tool.sunset === undefined ? undefined : { label: "Sunset", value: [text(`may be removed from ${tool.sunset}`)] },
    tool.content === undefined
      ? undefined
      : {
          label: "Content",
          value:
            tool.content.length === 0
              ? [text("none")]
              : joined(
                  tool.content.map((k) => [code(k)]),
                  ", ",
                ),
        },
    ...viewFacts(tool),
  ];
  return facts.filter((f): f is Fact => f !== undefined);
}

/** Timeout and retry: how long a call may take and how often it is tried. */
export function timingFacts(tool: ToolIR): Fact[] {
  return [
    { label: "Timeout", value: [text(`${ms(tool.timeoutMs)} per attempt`)] },
    ...retryFacts(tool),
    { label: "Budget", value: [text(`${ms(tool.retry.budgetMs)} for the whole call, attempts and delays included`)] },
  ];
}

const PER_WORDS = { subject: "per caller (the token's subject)", client: "per OAuth client" } as const;

/** The declared rate limit (the contract's, else the config's), as the generated server counts it. */
function rateLimitFacts(tool: ToolIR): Fact[] {
  const limit = tool.rateLimit;
  if (limit === undefined) return [];
  const window = limit.windowSeconds === 1 ? "second" : `${limit.windowSeconds} s`;
  return [
    {
      label: "Rate limit",
      value: [
        text(`${limit.calls} ${limit.calls === 1 ? "call" : "calls"} per ${window} ${PER_WORDS[limit.per]}; beyond it a call is refused, `),
        code("REJECTED"),
        text(" / "),
        code("RATE_LIMITED"),
        text(", with the seconds to wait (HTTP 429 Retry-After)"),
      ],
    },
  ];
}
