/**
 * The catalog's files for one run: the IR (the compile's own, or loaded
 * here), the changelog's releases, and the catalog emitter. `generate` and
 * `check` call it with the IR they compiled; `toolc docs` without one.
 * Contract paths are shown relative to the project folder, so the pages are
 * the same whichever folder a command runs in.
 */
import type { DiffConfig } from "../diff/config.js";
import { sideFromTexts, type ContractSide } from "../diff/sources.js";
import { emitCatalog } from "../emit/catalog/index.js";
import type { CatalogRelease } from "../emit/catalog/index.js";
import type { ContractIR, Diagnostic, EmittedFile } from "../ir.js";
import { readDefinitionTexts } from "../load/files.js";
import type { NormalizeOptions } from "../normalize/access.js";
import { definitionsIn, type ChangelogBase } from "./bases.js";
import { changelogReleases } from "./releases.js";

export interface DocsTarget {
  /** The catalog's folder, absolute. */
  readonly out: string;
  readonly title: string;
  /** The project folder, absolute: git runs here, and paths are shown relative to it. */
  readonly root: string;
  /** Newest first. */
  readonly changelog: readonly ChangelogBase[];
  /** The config's `diff:` section, which the changelog applies as `toolc diff` does. */
  readonly diffConfig: DiffConfig;
  /** The project's normalize options (normalizeOptionsOf the settings), as generate compiles with them. */
  readonly normalize: NormalizeOptions;
  /** The config file, absolute; a `git:REF` base is normalized with this file as that commit has it, as `toolc diff` does. */
  readonly configFile?: string;
}

export interface CatalogOutput {
  /** Paths relative to the catalog's folder; absent when the definitions do not compile. */
  readonly files?: EmittedFile[];
  readonly diagnostics: readonly Diagnostic[];
  readonly tools: number;
}

/** The definitions as the project folder names them, normalized through toolc diff's own loader with the project's options. */
function headSide(definitions: string, target: DocsTarget): { side?: ContractSide; diagnostics: readonly Diagnostic[] } {
  const where = definitionsIn(target.root, definitions);
  const texts = readDefinitionTexts(definitions, target.root) ?? [];
  return sideFromTexts(texts, where, target.normalize);
}

/** The catalog of the definitions in `definitions` (absolute), from `ir` when the caller compiled them already. */
export async function catalogFiles(target: DocsTarget, definitions: string, ir?: ContractIR): Promise<CatalogOutput> {
  const where = definitionsIn(target.root, definitions);
  const head = ir === undefined || target.changelog.length > 0 ? headSide(definitions, target) : undefined;
  // A side exists only when its definitions compiled.
  if (head && !head.side) return { diagnostics: head.diagnostics, tools: 0 };
  const contracts = ir ?? head?.side?.ir;
  if (contracts === undefined) return { diagnostics: [], tools: 0 };
  // The compile reported the definitions' own warnings already.
  const diagnostics: Diagnostic[] = ir === undefined ? [...(head?.diagnostics ?? [])] : [];
  let releases: CatalogRelease[] = [];
  if (head?.side && target.changelog.length > 0) {
    const changelog = await changelogReleases(head.side, target, where);
    releases = changelog.releases;
    diagnostics.push(...changelog.diagnostics);
  }
  return { files: emitCatalog(contracts, { title: target.title, definitions: where, releases }), diagnostics, tools: contracts.tools.length };
}
