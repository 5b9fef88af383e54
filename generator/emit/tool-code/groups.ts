/**
 * Where each tool's code (its validators: what its first call loads) is
 * written: a module of its own (`validators/<tool>.ts`), or one function of
 * a group module
 * (`chunks/group-<n>.ts`) shared by about `TOOLS_PER_GROUP` tools.
 *
 * Grouped from `GROUP_FROM_TOOLS` tools on, unless the config's
 * `toolsPerChunk` says otherwise: at 2,000 tools a module per tool made the
 * first call of every tool 4.9× a hand-written server's CPU, most of it
 * loading 4,000 modules, about 1 ms each (docs/performance.md, log of
 * 2026-12-07); a small project reads best with a file per tool.
 *
 * A tool's group comes from a hash of its name by linear hashing: with `n`
 * groups, the hash's low bits pick one of the first 2^k ≥ n/2, and the
 * groups below the split point take one more bit. The count of groups grows
 * by one each `TOOLS_PER_GROUP` tools (or each `GROUP_BYTES` of code, when
 * the tools' code is larger: a reviewer's tool opens no file over 1 MB), and
 * growing by one splits one group in two, so adding a tool changes its own
 * group's module (and, once in a while, moves about half of one group into a
 * new one): the committed folder's diff stays the size of the change.
 */
import { createHash } from "node:crypto";
import { toolTypeName } from "../ts-names.js";

/** The folder of the group modules. */
export const CHUNKS_FOLDER = "chunks";

/** From this many tools on, the tools' code is grouped by default. */
export const GROUP_FROM_TOOLS = 100;

/** The average number of tools per group module by default (docs/performance.md: measured at 2,000 tools). */
export const TOOLS_PER_GROUP = 50;

/**
 * The most code a group module holds on average, in characters: with linear
 * hashing a group holds up to about twice the average, and the largest file
 * should stay under 1 MB (#42). GitHub's tools hold about 18 KB of code each,
 * the synthetic bench's 14 KB, so this is the bound at API scale.
 */
export const GROUP_BYTES = 400_000;

/** Where a tool's code is: its own module, or an export of a group module. */
export type ToolCodePlace = { readonly kind: "own" } | { readonly kind: "group"; readonly module: string; readonly exportName: string };

/** The 32-bit hash a tool's group comes from: the first four bytes of the SHA-256 of its name (the same on every machine and version). */
export function nameHash(name: string): number {
  return createHash("sha256").update(name).digest().readUInt32BE(0);
}

/** The group of `hash` among `count` groups, by linear hashing (see the top of this file). */
export function groupOf(hash: number, count: number): number {
  let level = 1;
  while (level * 2 <= count) level *= 2;
  const low = hash % level;
  return low < count - level ? hash % (level * 2) : low;
}

/** The average number of tools per group for a project of `tools` tools: 1 (a module each) below the threshold. */
export function toolsPerChunk(tools: number, setting: number | undefined): number {
  if (setting !== undefined) return setting;
  return tools < GROUP_FROM_TOOLS ? 1 : TOOLS_PER_GROUP;
}

/** The group module's function that makes a tool's code: `get_order` → `getOrderCode`. */
export function toolCodeExport(tool: { readonly name: string }): string {
  const stem = toolTypeName(tool);
  return `${stem[0]!.toLowerCase()}${stem.slice(1)}Code`;
}

/**
 * Each tool's place, by name, for a project of these tools (`setting`: the
 * config's `toolsPerChunk`; `bytes`: the size of all the tools' code).
 */
export function toolCodePlaces(names: readonly string[], setting: number | undefined, bytes = 0): ReadonlyMap<string, ToolCodePlace> {
  const perChunk = toolsPerChunk(names.length, setting);
  if (perChunk <= 1) return new Map(names.map((name) => [name, { kind: "own" } as const]));
  const groups = Math.min(names.length, Math.max(Math.ceil(names.length / perChunk), Math.ceil(bytes / GROUP_BYTES)));
  return new Map(
    names.map(
      (name) => [name, { kind: "group", module: `${CHUNKS_FOLDER}/group-${groupOf(nameHash(name), groups)}`, exportName: toolCodeExport({ name }) }] as const,
    ),
  );
}
