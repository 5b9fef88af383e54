/**
 * What the catalog is built from: the IR, the changelog's releases (each a
 * `toolc diff` result, computed by the caller), and the names every page
 * links by. Pages are pure functions of this.
 */
import type { DiffResult } from "../../diff/index.js";
import type { ContractIR, NamedTypeIR, ToolIR, TypeFileIR } from "../../ir.js";
import { slug, type PageId } from "./model.js";
import { toolFileName } from "../ts-names.js";

/** One release of the changelog: the changes from `base` to `head`. */
export type CatalogRelease = {
  /** The newer contracts (a tag, say); absent for the contracts as they are now. */
  readonly head?: string;
  /** The older contracts, as the config names them (`git:v1.2.0` shows as `v1.2.0`). */
  readonly base: string;
} & ({ readonly result: DiffResult; readonly problem?: undefined } | { readonly result?: undefined; readonly problem: string });

export interface CatalogOptions {
  /** The catalog's title. */
  readonly title: string;
  /** The definitions folder relative to the project folder, posix; a tool's contract file is shown under it. */
  readonly definitions: string;
  /** Newest first; none: no changelog page. */
  readonly releases: readonly CatalogRelease[];
}

export interface Catalog {
  readonly ir: ContractIR;
  readonly options: CatalogOptions;
  /** By name. */
  readonly tools: readonly ToolIR[];
  readonly types: readonly { readonly type: NamedTypeIR; readonly file: TypeFileIR; readonly anchor: string }[];
  /** The types page's anchor of a named type. */
  typeAnchor(name: string): string | undefined;
  /** A tool's page, when the tool is in the catalog (a removed tool in the changelog has none). */
  toolPage(name: string): PageId | undefined;
}

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Element ids for one page: each unique, as GitHub numbers repeated heading anchors (`-1`, `-2`). */
export function idAllocator(taken: Iterable<string> = []): (words: string) => string {
  const used = new Set(taken);
  return (words) => {
    const base = slug(words) || "section";
    let id = base;
    for (let n = 1; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return id;
  };
}

/** Ids the page frame itself uses; no section may take them. */
export const FRAME_IDS = ["toolc-main", "toolc-search", "toolc-count"] as const;

export function catalogOf(ir: ContractIR, options: CatalogOptions): Catalog {
  const tools = [...ir.tools].sort(byName);
  const pages = new Map(tools.map((t) => [t.name, `tools/${toolFileName(t)}` as PageId]));
  const anchorFor = idAllocator(FRAME_IDS);
  const types = ir.typeFiles.flatMap((file) => file.types.map((type) => ({ type, file, anchor: anchorFor(type.name) })));
  const anchors = new Map(types.map((t) => [t.type.name, t.anchor]));
  return { ir, options, tools, types, typeAnchor: (name) => anchors.get(name), toolPage: (name) => pages.get(name) };
}

/** The contract file a tool or type came from, as the project names it. */
export function contractFile(catalog: Catalog, source: string): string {
  const dir = catalog.options.definitions;
  return dir === "." || dir === "" ? source : `${dir}/${source}`;
}
