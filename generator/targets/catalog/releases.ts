/**
 * The changelog's releases: each base of `docs.changelog` read through
 * `toolc diff`'s own sources (generator/diff/sources.ts) and compared by its
 * own rules (generator/diff/index.ts), newest first; each side normalized
 * with the options `toolc diff` gives it (generator/diff/base-config.ts).
 */
import { resolve } from "node:path";
import { Codes, warning } from "../../diagnostics.js";
import { baseNormalizeOptions } from "../../diff/base-config.js";
import { diffContracts } from "../../diff/index.js";
import { loadBase, type ContractSide } from "../../diff/sources.js";
import type { CatalogRelease } from "../../emit/catalog/index.js";
import type { Diagnostic } from "../../ir.js";
import { baseLabel, type ChangelogBase } from "./bases.js";
import type { DocsTarget } from "../../core/plan.js";

interface BaseSide {
  readonly label: string;
  readonly side?: ContractSide;
}

/** A base read as `toolc diff --base` reads it: a `git:REF` with the config of that commit, a folder with the project's. */
async function readBase(b: ChangelogBase, target: DocsTarget, definitions: string, diagnostics: Diagnostic[]): Promise<BaseSide> {
  const label = baseLabel(b.base);
  const options = await baseNormalizeOptions(b.base, target.root, target.configFile, target.normalize);
  if (options.diagnostics.length > 0) {
    diagnostics.push(...options.diagnostics);
    return { label };
  }
  const result = loadBase(b.base.startsWith("git:") ? b.base : resolve(target.root, b.base), definitions, target.root, options.options);
  if (result.side) return { label, side: result.side };
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  diagnostics.push(
    warning(
      b.at ?? { file: ".", line: 1, col: 1 },
      Codes.changelogBase,
      `the contracts at ${JSON.stringify(b.base)} do not compile with this toolc (${errors} ${errors === 1 ? "error" : "errors"}; \`toolc diff --base ${b.base}\` shows them); the changelog cannot compare them`,
    ),
  );
  return { label };
}

/**
 * The releases, newest first: the first from the first base to `head` (the
 * contracts as they are), each later one from its base to the base before it.
 * A base that does not compile gives releases that say so, and a warning.
 */
export async function changelogReleases(
  head: ContractSide,
  target: DocsTarget,
  definitions: string,
): Promise<{ releases: CatalogRelease[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const sides: BaseSide[] = [];
  for (const b of target.changelog) sides.push(await readBase(b, target, definitions, diagnostics));
  const releases = sides.map((base, i): CatalogRelease => {
    const newer: BaseSide | undefined = i === 0 ? undefined : sides[i - 1];
    const newerSide = i === 0 ? head : newer?.side;
    const headLabel = newer === undefined ? {} : { head: newer.label };
    if (!base.side || !newerSide)
      return {
        base: base.label,
        ...headLabel,
        problem: `The contracts at ${base.side ? newer?.label : base.label} do not compile with this toolc, so this release is not compared.`,
      };
    return { base: base.label, ...headLabel, result: diffContracts(base.side, newerSide, target.diffConfig) };
  });
  return { releases, diagnostics };
}
