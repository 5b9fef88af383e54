/** Identifiers derived from tool and type names. */

/** `get_order` → `GetOrder`; `repo.search-items` → `RepoSearchItems`. */
export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  const joined = words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
  if (joined === "") return "Tool";
  return /^[0-9]/.test(joined) ? `Tool${joined}` : joined;
}

/** A module stem safe on every file system: `billing/types.yaml` → `billing_types`. */
export function moduleStem(source: string): string {
  return source.replace(/\.ya?ml$/, "").replace(/[^A-Za-z0-9_-]+/g, "_");
}
