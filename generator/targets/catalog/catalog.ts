/**
 * The catalog's files for one run: the IR (the compile's own, or loaded
 * here), the changelog's releases, and the catalog emitter. `generate` and
 * `check` call it with the IR and texts they compiled, so the catalog
 * shows, and its changelog compares, the very contracts the run emitted;
 * `toolc docs` without them.
 * Contract paths are shown relative to the project folder, so the pages are
 * the same whichever folder a command runs in.
 */
import { join, relative, sep } from "node:path";
import { sideFromTexts, type ContractSide } from "../../diff/sources.js";
import { emitCatalog } from "../../emit/catalog/index.js";
import type { CatalogRelease } from "../../emit/catalog/index.js";
import type { Diagnostic, EmittedFile } from "../../ir.js";
import { readDefinitionTexts } from "../../load/files.js";
import { loadDefinitionsFromTexts, type YamlSource } from "../../load/index.js";
import type { DocsTarget } from "../../core/plan.js";
import type { CompiledHead } from "../target.js";
import { definitionsIn } from "./bases.js";
import { changelogReleases } from "./releases.js";

export type { CompiledHead, DocsTarget };

export interface CatalogOutput {
  /** Paths relative to the catalog's folder; absent when the definitions do not compile. */
  readonly files?: EmittedFile[];
  readonly diagnostics: readonly Diagnostic[];
  readonly tools: number;
}

/** The head as the compile left it: its IR and the texts it was compiled from, which the catalog neither reads nor normalizes again. */

/** The definitions as the project folder names them, normalized through toolc diff's own loader with the plan's options (`toolc docs`, which compiles nothing else). */
function headSide(definitions: string, target: DocsTarget): { side?: ContractSide; diagnostics: readonly Diagnostic[] } {
  const where = definitionsIn(target.root, definitions);
  const texts = readDefinitionTexts(definitions, target.root) ?? [];
  return sideFromTexts(texts, where, target.normalize);
}

/**
 * The compiled head as a side of the changelog's diff: its IR as it is, and
 * each file's YAML (parsed from the same texts, for locating changes). The
 * compile names the texts from the working folder; the changelog names them
 * from the project folder, so its pages are the same wherever a run starts.
 */
function compiledSide(head: CompiledHead, definitions: string, root: string): ContractSide {
  const texts = head.texts.map((t) => ({ ...t, display: relative(root, join(definitions, t.source)).split(sep).join("/") }));
  const loaded = loadDefinitionsFromTexts(texts);
  const files = new Map(loaded.files.map((f) => [f.source, f]));
  const typeFiles = new Map<string, YamlSource>();
  for (const typeFile of head.ir.typeFiles) {
    const file = files.get(typeFile.source);
    if (file) for (const type of typeFile.types) typeFiles.set(type.name, file);
  }
  return { ir: head.ir, files, typeFiles };
}

/** The catalog of the definitions in `definitions` (absolute), from the compile's head when the caller compiled them already. */
export async function catalogFiles(target: DocsTarget, definitions: string, compiled?: CompiledHead): Promise<CatalogOutput> {
  const where = definitionsIn(target.root, definitions);
  const head = compiled === undefined ? headSide(definitions, target) : undefined;
  // A side exists only when its definitions compiled.
  if (head && !head.side) return { diagnostics: head.diagnostics, tools: 0 };
  const contracts = compiled?.ir ?? head?.side?.ir;
  if (contracts === undefined) return { diagnostics: [], tools: 0 };
  // The compile reported the definitions' own warnings already.
  const diagnostics: Diagnostic[] = compiled === undefined ? [...(head?.diagnostics ?? [])] : [];
  let releases: CatalogRelease[] = [];
  if (target.changelog.length > 0) {
    const side = compiled === undefined ? head?.side : compiledSide(compiled, definitions, target.root);
    if (side) {
      const changelog = await changelogReleases(side, target, where);
      releases = changelog.releases;
      diagnostics.push(...changelog.diagnostics);
    }
  }
  return { files: emitCatalog(contracts, { title: target.title, definitions: where, releases }), diagnostics, tools: contracts.tools.length };
}
