// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Drift check: does the server's tools/list match the contracts this client
 * was compiled from? Each tool's `_meta` carries its contract version and a
 * hash of its normalized schemas; a tool that is missing, or whose version
 * or hash differs, is reported by name, on connect, instead of failing later
 * on a call.
 */
import { requestToolList, type Client } from "./sdk.js";
import {
  CONTRACT_VERSION_META_KEY,
  SCHEMA_HASH_META_KEY,
  type ContractMap,
} from "./contract.js";

export type DriftProblem =
  /** The server does not list the tool. */
  | "missing"
  /** The server serves another version of the contract. */
  | "version"
  /** Same version, different schemas: the contract changed without a version bump. */
  | "schema"
  /** The server's tools/list carries no contract version or hash to compare. */
  | "unverified";

export interface ToolDrift {
  readonly tool: string;
  readonly problem: DriftProblem;
  readonly message: string;
}

export interface DriftReport {
  /** True when every contract matches what the server serves. */
  readonly ok: boolean;
  /** One entry per tool that does not match, in contract order. */
  readonly tools: readonly ToolDrift[];
}

type Meta = { readonly [key: string]: unknown };

/** More pages than this is a server whose listing does not end: real ones list every tool in a few. */
export const MAX_TOOL_LIST_PAGES = 256;

/** Why a server's tools/list could not be read to its end. */
export type ToolListProblem =
  /** A page gave a `nextCursor` an earlier page gave: the listing would go round forever. */
  | "repeated-cursor"
  /** The server kept giving new cursors past MAX_TOOL_LIST_PAGES pages. */
  | "too-many-pages";

/** The drift check could not list the server's tools: its paging does not end. */
export class ToolListError extends Error {
  // Fields assigned in the constructor, not parameter properties: those are not erasable syntax.
  readonly problem: ToolListProblem;
  /** Pages read before stopping. */
  readonly pages: number;

  constructor(problem: ToolListProblem, pages: number) {
    super(
      problem === "repeated-cursor"
        ? `the server's tools/list repeated a cursor after ${pages} pages, so its listing never ends`
        : `the server's tools/list went on past ${pages} pages`,
    );
    this.name = "ToolListError";
    this.problem = problem;
    this.pages = pages;
  }
}

/** Every page of tools/list: tool name → its `_meta`. Stops, with a ToolListError, on a cursor seen before or past the page limit. */
async function listedMeta(client: Client): Promise<Map<string, Meta>> {
  const listed = new Map<string, Meta>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    if (pages === MAX_TOOL_LIST_PAGES)
      throw new ToolListError("too-many-pages", pages);
    const page = await requestToolList(client, cursor);
    pages++;
    for (const tool of page.tools) listed.set(tool.name, tool._meta ?? {});
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      if (cursors.has(cursor))
        throw new ToolListError("repeated-cursor", pages);
      cursors.add(cursor);
    }
  } while (cursor !== undefined);
  return listed;
}

function own(meta: Meta, key: string): unknown {
  return Object.hasOwn(meta, key) ? meta[key] : undefined;
}

function compareTool(
  name: string,
  expected: Meta,
  served: Meta | undefined,
): ToolDrift | undefined {
  if (served === undefined)
    return {
      tool: name,
      problem: "missing",
      message: `the server does not serve \`${name}\``,
    };
  const version = own(served, CONTRACT_VERSION_META_KEY);
  const hash = own(served, SCHEMA_HASH_META_KEY);
  const wantVersion = own(expected, CONTRACT_VERSION_META_KEY);
  if (version === undefined || hash === undefined)
    return {
      tool: name,
      problem: "unverified",
      message: `the server lists \`${name}\` without a contract version and schema hash`,
    };
  if (version !== wantVersion)
    return {
      tool: name,
      problem: "version",
      message: `the server serves \`${name}\` version ${String(version)}; this client was compiled from version ${String(wantVersion)}`,
    };
  if (hash !== own(expected, SCHEMA_HASH_META_KEY))
    return {
      tool: name,
      problem: "schema",
      message: `the server's schemas for \`${name}\` differ from this client's, at the same version ${String(version)}`,
    };
  return undefined;
}

/**
 * Compares the server's tools/list with `contracts`. Rejects only when
 * tools/list itself fails: a request fails, or the paging does not end
 * (ToolListError: a repeated cursor, or more than MAX_TOOL_LIST_PAGES pages).
 */
export async function checkToolDrift(
  contracts: ContractMap,
  client: Client,
): Promise<DriftReport> {
  const listed = await listedMeta(client);
  const tools: ToolDrift[] = [];
  for (const contract of Object.values(contracts)) {
    const drift = compareTool(
      contract.name,
      contract.meta,
      listed.get(contract.name),
    );
    if (drift) tools.push(drift);
  }
  return { ok: tools.length === 0, tools };
}
