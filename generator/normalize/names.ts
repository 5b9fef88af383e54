/** File stems derived from definition paths. */

/** A module stem safe on every file system: `billing/types.yaml` → `billing_types`. */
export function moduleStem(source: string): string {
  return source.replace(/\.ya?ml$/, "").replace(/[^A-Za-z0-9_-]+/g, "_");
}
