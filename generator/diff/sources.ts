/**
 * The two sides of a diff, each read through the compiler's own load and
 * normalize phases: a definitions folder on disk, or one read from git
 * objects (`git:REF`), so a pull request's base needs no checkout.
 */
import { execFileSync } from "node:child_process";
import { relative, resolve, sep } from "node:path";
import { Codes, error, hasErrors } from "../diagnostics.js";
import type { ContractIR, Diagnostic } from "../ir.js";
import { readDefinitionTexts, type DefinitionText } from "../load/files.js";
import { loadDefinitionsFromTexts, type YamlSource } from "../load/index.js";
import { normalize, type NormalizeOptions, type OutputLint } from "../normalize/index.js";

/** One side, normalized, with the YAML of every file kept for locating changes. */
export interface ContractSide {
  readonly ir: ContractIR;
  readonly files: ReadonlyMap<string, YamlSource>;
  /** Named type → the types file that declares it. */
  readonly typeFiles: ReadonlyMap<string, YamlSource>;
}

export type SideResult =
  | { readonly side: ContractSide; readonly diagnostics: readonly Diagnostic[] }
  /** `unreadable`: there was nothing to compile (no such git ref, not a repository), as opposed to contracts with errors. */
  | { readonly side?: undefined; readonly diagnostics: readonly Diagnostic[]; readonly unreadable?: true };

const toPosix = (path: string): string => path.split(sep).join("/");

/** A side that could not be read at all: no definitions where BASE or --definitions points. */
function located(file: string, message: string): Diagnostic {
  return error({ file, line: 1, col: 1 }, Codes.emptyDefinitions, message);
}

/**
 * Loads and normalizes definition texts; any error in them makes the side unusable. `options`
 * carries the config's default scopes, so both sides compare the scopes a call needs; `lint`,
 * the targets' own lints, so `toolc diff` refuses what `generate` would (commands/diff.ts).
 */
export function sideFromTexts(texts: readonly DefinitionText[], where: string, options: NormalizeOptions = {}, lint?: OutputLint): SideResult {
  if (texts.length === 0) return { diagnostics: [located(where, `no *.yaml definitions found in ${where}`)] };
  const loaded = loadDefinitionsFromTexts(texts);
  const { ir, diagnostics } = normalize(loaded, options, lint);
  if (hasErrors(diagnostics)) return { diagnostics };
  const files = new Map(loaded.files.map((f) => [f.source, f]));
  const typeFiles = new Map<string, YamlSource>();
  for (const typeFile of ir.typeFiles) {
    const file = files.get(typeFile.source);
    if (file) for (const type of typeFile.types) typeFiles.set(type.name, file);
  }
  return { side: { ir, files, typeFiles }, diagnostics };
}

export function sideFromFolder(dir: string, cwd: string, options: NormalizeOptions = {}, lint?: OutputLint): SideResult {
  const where = toPosix(relative(cwd, resolve(cwd, dir))) || ".";
  const texts = readDefinitionTexts(resolve(cwd, dir), cwd);
  if (texts === undefined) return { diagnostics: [located(where, `definitions folder not found or empty: ${where}`)] };
  return sideFromTexts(texts, where, options, lint);
}

export function git(args: readonly string[], cwd: string): Buffer {
  return execFileSync("git", args, { cwd, maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] });
}

function gitError(e: unknown): string {
  const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim();
  return stderr || (e instanceof Error ? e.message : String(e));
}

/**
 * The definitions folder as it is at `ref`, read from git objects: `ls-tree`
 * lists the blobs under the folder (paths relative to the working directory,
 * as git prints them by default) and `cat-file` reads each one.
 */
export function readGitTexts(ref: string, dir: string, cwd: string): { texts?: DefinitionText[]; error?: string } {
  let listing: string;
  try {
    git(["rev-parse", "--is-inside-work-tree"], cwd);
  } catch (e) {
    return { error: `cannot read git ref ${JSON.stringify(ref)}: ${gitError(e)}` };
  }
  try {
    git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], cwd);
  } catch {
    // `--quiet` prints nothing for a missing ref: say what is missing rather than echo the command.
    return { error: `cannot read git ref ${JSON.stringify(ref)}: no branch, tag or commit of that name in this repository` };
  }
  try {
    listing = git(["ls-tree", "-r", "-z", ref, "--", dir], cwd).toString("utf8");
  } catch (e) {
    return { error: `cannot read git ref ${JSON.stringify(ref)}: ${gitError(e)}` };
  }
  const prefix = toPosix(relative(cwd, resolve(cwd, dir)));
  const texts: DefinitionText[] = [];
  for (const entry of listing.split("\0")) {
    const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
    if (!match) continue;
    const [, oid, path] = match as unknown as [string, string, string];
    const source = prefix === "" ? path : path.slice(prefix.length + 1);
    if (!/\.ya?ml$/.test(path) || source.split("/").some((part) => part.startsWith(".") || part === "node_modules")) continue;
    texts.push({ source, display: path, text: git(["cat-file", "blob", oid], cwd).toString("utf8") });
  }
  // Same order as a folder on disk, so both sides load alike.
  texts.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return { texts };
}

/** BASE as the command line gives it: `git:REF` or a folder. */
export function loadBase(base: string, definitions: string, cwd: string, options: NormalizeOptions = {}, lint?: OutputLint): SideResult {
  if (!base.startsWith("git:")) return sideFromFolder(base, cwd, options, lint);
  const ref = base.slice("git:".length);
  const read = readGitTexts(ref, definitions, cwd);
  if (read.error !== undefined || read.texts === undefined) return { diagnostics: [located(".", read.error ?? "cannot read git")], unreadable: true };
  return sideFromTexts(read.texts, `${ref}:${toPosix(definitions)}`, options, lint);
}
