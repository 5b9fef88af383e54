/**
 * Policy rules: what a tool does, rather than what it accepts. A more severe
 * effect or a tool that is no longer idempotent breaks callers that retry or
 * run it unattended; a shorter timeout, fewer retries or a new rejection
 * reason are warnings; versions are reported so a breaking change can be
 * matched with its bump.
 */
import type { Effect, SourceLocation, ToolIR } from "../ir.js";
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

export function comparePolicy(base: ToolIR, head: ToolIR, baseFile: YamlSource, headFile: YamlSource): PolicyFinding[] {
  const out: PolicyFinding[] = [];
  const at = (path: readonly (string | number)[], atKey = false): SourceLocation => locateKey(headFile, path, atKey);
  if (SEVERITY[head.effect] > SEVERITY[base.effect]) out.push({ rule: "effect-more-severe", level: "breaking", message: `effect ${base.effect} → ${head.effect}`, at: at(["effect"]) });
  if (SEVERITY[head.effect] < SEVERITY[base.effect]) out.push({ rule: "effect-less-severe", level: "info", message: `effect ${base.effect} → ${head.effect}`, at: at(["effect"]) });
  if (base.idempotent && !head.idempotent) out.push({ rule: "idempotent-removed", level: "breaking", message: "no longer idempotent: callers that retry may apply it twice", at: at(["idempotent"]) });
  if (!base.idempotent && head.idempotent) out.push({ rule: "idempotent-added", level: "info", message: "now idempotent", at: at(["idempotent"]) });
  if (head.timeoutMs < base.timeoutMs) out.push({ rule: "timeout-shortened", level: "warning", message: `timeoutMs ${base.timeoutMs} → ${head.timeoutMs}`, at: at(["timeoutMs"]) });
  if (head.timeoutMs > base.timeoutMs) out.push({ rule: "timeout-lengthened", level: "info", message: `timeoutMs ${base.timeoutMs} → ${head.timeoutMs}`, at: at(["timeoutMs"]) });
  if (head.retry.attempts < base.retry.attempts) out.push({ rule: "retries-reduced", level: "warning", message: `retry.attempts ${base.retry.attempts} → ${head.retry.attempts}`, at: at(["retry", "attempts"]) });
  if (head.retry.attempts > base.retry.attempts) out.push({ rule: "retries-increased", level: "info", message: `retry.attempts ${base.retry.attempts} → ${head.retry.attempts}`, at: at(["retry", "attempts"]) });
  if (head.idempotencyKey !== base.idempotencyKey) {
    out.push({ rule: "idempotency-key-changed", level: "warning", message: `idempotencyKey ${base.idempotencyKey ?? "(none)"} → ${head.idempotencyKey ?? "(none)"}`, at: at(["idempotencyKey"]) });
  }
  const baseReasons = new Set(base.errors.map((e) => e.code));
  const headReasons = new Set(head.errors.map((e) => e.code));
  for (const code of headReasons) {
    if (!baseReasons.has(code)) out.push({ rule: "error-reason-added", level: "warning", message: `rejection reason ${code} added: callers that handle every reason must handle it`, at: at(["errors", code], true) });
  }
  for (const code of baseReasons) {
    if (!headReasons.has(code)) out.push({ rule: "error-reason-removed", level: "info", message: `rejection reason ${code} removed`, at: locateKey(baseFile, ["errors", code], true) });
  }
  if (head.version > base.version) out.push({ rule: "version-bumped", level: "info", message: `version ${base.version} → ${head.version}`, at: at(["version"]) });
  if (head.version < base.version) out.push({ rule: "version-lowered", level: "warning", message: `version ${base.version} → ${head.version}`, at: at(["version"]) });
  return out;
}
