/**
 * The changelog's bases, before anything is compared: how the config and the
 * command line name them, and an identity for each (a git tree id, or a hash
 * of a folder's texts), so the build cache can tell that nothing changed
 * without reading or diffing anything. Light on purpose: a run with nothing
 * to do loads no YAML parser and no Ajv.
 */
import { execFileSync } from "node:child_process";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { hashText } from "../../hash.js";
import { Codes, error } from "../../diagnostics.js";
import { configPathAt } from "../../diff/base-config.js";
import type { DiffConfig } from "../../diff/config.js";
import type { ChangelogBase } from "../../core/plan.js";
import type { Diagnostic } from "../../ir.js";

export type { ChangelogBase };
import { readDefinitionTexts } from "../../load/files.js";

const toPosix = (path: string): string => path.split(sep).join("/");

/** How the changelog names a base: the ref of `git:REF`, a folder as written. */
export function baseLabel(base: string): string {
  return base.startsWith("git:") ? base.slice("git:".length) : base;
}

/** The blob id of the config a `git:REF` base is normalized with (its default scopes are part of each tool's), or "" when the commit has none. */
function configAt(ref: string, root: string, configFile: string | undefined): string {
  const path = configPathAt(ref, root, configFile);
  if (path === undefined || path === "outside") return "";
  return execFileSync("git", ["rev-parse", `${ref}^{commit}:${path}`], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
    .toString("utf8")
    .trim();
}

function located(b: ChangelogBase, message: string): Diagnostic {
  return error(b.at ?? { file: ".", line: 1, col: 1 }, Codes.changelogBase, message);
}

/**
 * What a base holds, as one string that changes whenever its contracts do:
 * the tree id of the definitions folder at a git ref, or a hash of a
 * folder's definition texts. A diagnostic when the base cannot be read.
 */
function identityOf(b: ChangelogBase, definitions: string, root: string, configFile: string | undefined): string | Diagnostic {
  if (b.base.startsWith("git:")) {
    const ref = b.base.slice("git:".length);
    if (ref === "" || ref.startsWith("-")) return located(b, `\`${b.base}\` does not name a git ref`);
    try {
      const tree = execFileSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}:./${definitions}`], {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
      });
      return `git ${tree.toString("utf8").trim()} ${configAt(ref, root, configFile)}`;
    } catch {
      return located(
        b,
        `cannot read the definitions folder (${definitions}) at git ref ${JSON.stringify(ref)}: no such commit or folder in the repository at ${toPosix(root)}`,
      );
    }
  }
  const texts = readDefinitionTexts(resolve(root, b.base), root);
  if (texts === undefined) return located(b, `the changelog base ${JSON.stringify(b.base)} is not a folder of definitions`);
  return `folder ${hashText(...texts.flatMap((t) => [t.source, t.text]))}`;
}

export interface BaseIdentities {
  /** Changes whenever any base's contracts do. */
  readonly key: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** The bases' identities as one key, or the diagnostics of those that cannot be read. */
export function baseIdentities(bases: readonly ChangelogBase[], definitions: string, root: string, configFile?: string): BaseIdentities {
  const found = bases.map((b) => identityOf(b, definitions, root, configFile));
  const diagnostics = found.filter((f): f is Diagnostic => typeof f !== "string");
  return { key: hashText(...found.map((f) => (typeof f === "string" ? f : ""))), diagnostics };
}

/** The definitions folder relative to the project folder, posix, as git and the catalog name it. */
export function definitionsIn(root: string, definitions: string): string {
  const abs = isAbsolute(definitions) ? definitions : resolve(root, definitions);
  return toPosix(relative(root, abs)) || ".";
}

/** A diff config as text, for cache keys. */
export function diffConfigKey(config: DiffConfig): string {
  const sorted = (set: ReadonlySet<string>): string[] => [...set].sort();
  return JSON.stringify({
    except: sorted(config.except),
    ignore: sorted(config.ignore),
    ignoreOnly: [...config.ignoreOnly].map(([rule, tools]) => [rule, sorted(tools)]).sort(),
  });
}
