/**
 * What an OpenAPI import converted, per field. Conversions keep the meaning
 * (or follow what OpenAPI says a keyword means), so they are not warnings;
 * they are counted by kind on the command line and listed one per field in
 * the report file (`--report`), so nothing changes without a trace.
 */

export interface Conversion {
  readonly kind: string;
  /** JSON pointer in the API description. */
  readonly pointer: string;
  readonly message: string;
}

export class Conversions {
  readonly #seen = new Set<string>();
  readonly list: Conversion[] = [];

  add(kind: string, pointer: string, message: string): void {
    const key = `${kind}\u0000${pointer}\u0000${message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.list.push({ kind, pointer, message });
  }

  /** Counts by kind, most frequent first, then by name. */
  counts(): [string, number][] {
    const counts = new Map<string, number>();
    for (const c of this.list) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  }
}
