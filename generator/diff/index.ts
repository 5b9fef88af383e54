/**
 * `toolc diff`, as a function: every change between two normalized sets of
 * contracts, one located record each. A change inside a shared named type is
 * one record at the type, listing every tool and direction it affects.
 */
import type { SourceLocation, ToolIR } from "../ir.js";
import type { YamlSource } from "../load/index.js";
import { ruleApplies, type DiffConfig } from "./config.js";
import { comparePolicy, toolRemoval } from "./policy.js";
import { worstLevel, type Direction, type Level, type RuleId } from "./rules.js";
import { compareSchemas, type SchemaFinding } from "./schema-compare.js";
import type { ContractSide } from "./sources.js";
import { markViewBreaks } from "./views.js";

export interface Affected {
  readonly tool: string;
  readonly direction: Direction;
  readonly level: Level;
}

export interface Change extends SourceLocation {
  readonly rule: RuleId;
  /** The worst level among the tools it affects. */
  readonly level: Level;
  readonly message: string;
  /** The field the change is at: `input.orders[].status`, or inside `type`, `Order.status`. */
  readonly field?: string;
  /** The named type the change is in. */
  readonly type?: string;
  readonly affects: readonly Affected[];
  /** The views (MCP Apps) whose data this change breaks (diff/views.ts), named as the report names them; absent when none. */
  readonly views?: readonly string[];
}

export interface DiffResult {
  readonly changes: readonly Change[];
  /** Tools with a breaking change (or, under `undecided: fail`, an undecided one) and no version bump. */
  readonly unversioned: readonly string[];
  /** Whether undecided changes count as breaking (`diff.undecided: fail`). */
  readonly undecidedFails: boolean;
}

function fileOf(side: ContractSide, tool: ToolIR): YamlSource {
  const file = side.files.get(tool.source);
  if (!file) throw new Error(`no source file for tool ${tool.name}`);
  return file;
}

function schemaChanges(tool: string, direction: "input" | "output", findings: readonly SchemaFinding[]): Change[] {
  const out: Change[] = [];
  for (const f of findings) {
    const level = f.levels[direction];
    if (level === null) continue;
    const field = f.type === undefined ? `${direction}${f.field}` : `${f.type}${f.field}`;
    out.push({
      ...f.at,
      rule: f.rule,
      level,
      message: f.message,
      field,
      ...(f.type === undefined ? {} : { type: f.type }),
      affects: [{ tool, direction, level }],
    });
  }
  return out;
}

function compareTool(base: ContractSide, head: ContractSide, b: ToolIR, h: ToolIR): Change[] {
  const baseFile = fileOf(base, b);
  const headFile = fileOf(head, h);
  const policy = comparePolicy(b, h, baseFile, headFile).map((p): Change => ({
    ...p.at,
    rule: p.rule,
    level: p.level,
    message: p.message,
    affects: [{ tool: h.name, direction: "tool", level: p.level }],
  }));
  const sides = (which: "input" | "output") => {
    const side = (s: ContractSide, t: ToolIR, file: YamlSource) => ({
      root: which === "input" ? t.inputSchema : t.outputSchema,
      defs: which === "input" ? t.inputDefs : t.outputDefs,
      toolFile: file,
      key: which,
      typeFiles: s.typeFiles,
    });
    return compareSchemas(side(base, b, baseFile), side(head, h, headFile));
  };
  return [...policy, ...schemaChanges(h.name, "input", sides("input")), ...schemaChanges(h.name, "output", sides("output"))];
}

/**
 * Changes inside a named type, found once per tool and direction that uses
 * it, become one record listing them all; a change found twice for the same
 * tool (a definition used at two places) is reported once.
 */
function groupByType(changes: readonly Change[]): Change[] {
  const grouped = new Map<string, number>();
  const out: Change[] = [];
  for (const change of changes) {
    const owner = change.type === undefined ? change.affects.map((a) => `${a.tool} ${a.direction}`) : [];
    const key = JSON.stringify([change.type ?? "", owner, change.rule, change.field, change.file, change.line, change.col, change.message]);
    const at = grouped.get(key);
    const existing = at === undefined ? undefined : out[at];
    if (at === undefined || existing === undefined) {
      grouped.set(key, out.push(change) - 1);
      continue;
    }
    const affects = [
      ...existing.affects,
      ...change.affects.filter((a) => !existing.affects.some((e) => e.tool === a.tool && e.direction === a.direction)),
    ].sort(mostAffectedFirst);
    out[at] = { ...existing, affects, level: worstLevel(affects.map((a) => a.level)) };
  }
  return out;
}

function applyConfig(changes: readonly Change[], config: DiffConfig): Change[] {
  const out: Change[] = [];
  for (const change of changes) {
    const affects = change.affects.filter((a) => ruleApplies(config, change.rule, a.tool));
    if (affects.length === 0) continue;
    out.push({ ...change, affects, level: worstLevel(affects.map((a) => a.level)) });
  }
  return out;
}

const LEVEL_RANK: Record<Level, number> = { breaking: 0, undecided: 1, warning: 2, info: 3 };
const DIRECTION_RANK: Record<Direction, number> = { tool: 0, input: 1, output: 2 };

/** The tools a change affects, most severely affected first, then by name and direction. */
function mostAffectedFirst(a: Affected, b: Affected): number {
  return (
    LEVEL_RANK[a.level] - LEVEL_RANK[b.level] || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0) || DIRECTION_RANK[a.direction] - DIRECTION_RANK[b.direction]
  );
}

function byLocation(a: Change, b: Change): number {
  return a.file < b.file
    ? -1
    : a.file > b.file
      ? 1
      : a.line - b.line || a.col - b.col || LEVEL_RANK[a.level] - LEVEL_RANK[b.level] || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);
}

/** Today as YYYY-MM-DD (UTC), the day sunsets are compared with. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export function diffContracts(base: ContractSide, head: ContractSide, config: DiffConfig, day: string = today()): DiffResult {
  const headTools = new Map(head.ir.tools.map((t) => [t.name, t]));
  const baseTools = new Map(base.ir.tools.map((t) => [t.name, t]));
  const changes: Change[] = [];
  for (const b of base.ir.tools) {
    const h = headTools.get(b.name);
    if (h) changes.push(...compareTool(base, head, b, h));
    else {
      const removal = toolRemoval(b, day);
      changes.push({ ...fileOf(base, b).locate(["name"]), ...removal, affects: [{ tool: b.name, direction: "tool", level: removal.level }] });
    }
  }
  for (const h of head.ir.tools) {
    if (!baseTools.has(h.name))
      changes.push({
        ...fileOf(head, h).locate(["name"]),
        rule: "tool-added",
        level: "info",
        message: `tool \`${h.name}\` added`,
        affects: [{ tool: h.name, direction: "tool", level: "info" }],
      });
  }
  const kept = markViewBreaks(applyConfig(groupByType(changes), config), base.ir.tools).sort(byLocation);
  const bumped = (tool: string): boolean => {
    const b = baseTools.get(tool);
    const h = headTools.get(tool);
    return b !== undefined && h !== undefined && h.version > b.version;
  };
  const failing = (level: Level) => level === "breaking" || (config.undecided === "fail" && level === "undecided");
  const unversioned = new Set<string>();
  for (const change of kept) for (const a of change.affects) if (failing(a.level) && !bumped(a.tool)) unversioned.add(a.tool);
  return { changes: kept, unversioned: [...unversioned].sort(), undecidedFails: config.undecided === "fail" };
}
