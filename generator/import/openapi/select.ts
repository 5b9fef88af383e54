/**
 * Which operations become tools, and under which names: the include and
 * exclude selectors (tags, operationIds, path globs, methods) of the
 * command line and the curation, and a name per tool that is valid for MCP
 * and every provider (`^[A-Za-z0-9_-]{1,64}$`), unique also without regard
 * to case, and never one `generate` refuses.
 */
import { createHash } from "node:crypto";
import { avoidReserved } from "../names.js";
import type { OperationCuration, Selector } from "./curation.js";
import type { Operation } from "./model.js";

/** How the curation and the command line name an operation: its operationId, else `METHOD /path`. */
export function operationKeys(op: Operation): string[] {
  const byPath = `${op.method.toUpperCase()} ${op.path}`;
  return op.operationId === undefined ? [byPath] : [op.operationId, byPath];
}

/** `*` matches within one path segment, `**` across segments. */
export function globToRegExp(glob: string): RegExp {
  const source = glob
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join(".*");
  return new RegExp(`^${source}$`);
}

export function matches(op: Operation, selector: Selector): boolean {
  if (selector.tags?.some((t) => op.tags.includes(t))) return true;
  if (selector.operations?.some((o) => operationKeys(op).includes(o))) return true;
  if (selector.methods?.some((m) => m.toLowerCase() === op.method)) return true;
  return selector.paths?.some((p) => globToRegExp(p).test(op.path)) ?? false;
}

function isEmpty(selector: Selector | undefined): boolean {
  return selector === undefined || Object.values(selector).every((v) => v === undefined || v.length === 0);
}

export function selected(op: Operation, include: readonly Selector[], exclude: readonly Selector[], curation: OperationCuration | undefined): boolean {
  if (curation?.exclude === true) return false;
  const includes = include.filter((s) => !isEmpty(s));
  if (includes.length > 0 && !includes.some((s) => matches(op, s))) return false;
  return !exclude.some((s) => !isEmpty(s) && matches(op, s));
}

const MAX_NAME = 64;

/** `repos/get-content` → `repos_get-content`; `GET /accounts/{stake_address}` → `get_accounts_stake_address`; `2fa-status` → `get_2fa-status`. */
export function derivedName(op: Operation): string {
  const raw = op.operationId ?? `${op.method}_${op.path}`;
  const cleaned =
    raw
      .replace(/[^A-Za-z0-9_-]+/g, "_")
      .replace(/_+/g, "_")
      .replace(/^[_-]+|[_-]+$/g, "") || op.method;
  // Gemini refuses a function name that does not start with a letter or `_` (`2fa-status`): the method goes first.
  const name = /^[A-Za-z]/.test(cleaned) ? cleaned : `${op.method}_${cleaned}`;
  if (name.length <= MAX_NAME) return name;
  // Long names keep their start and get a short hash of the whole, so two long names stay apart.
  const hash = createHash("sha256").update(raw).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9).replace(/[_-]+$/, "")}_${hash}`;
}

export interface Named {
  readonly name: string;
  readonly note?: string;
}

/** Names in operation order; a clash (also in case) gets `_2`, `_3`, … with a note. */
export function assignNames(ops: readonly Operation[], curated: (op: Operation) => string | undefined): Map<Operation, Named> {
  const out = new Map<Operation, Named>();
  const taken = new Set<string>();
  for (const op of ops) {
    const wanted = curated(op) ?? derivedName(op);
    const reserved = avoidReserved(wanted, (lower) => taken.has(lower));
    let name = reserved.name;
    let note = reserved.note;
    if (taken.has(name.toLowerCase())) {
      const base = name.slice(0, MAX_NAME - 3);
      let i = 2;
      while (taken.has(`${base}_${i}`.toLowerCase())) i++;
      name = `${base}_${i}`;
      note = `named ${JSON.stringify(name)}: ${JSON.stringify(wanted)} is taken by another operation`;
    }
    taken.add(name.toLowerCase());
    out.set(op, note === undefined ? { name } : { name, note });
  }
  return out;
}
