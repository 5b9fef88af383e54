/**
 * The type-checking half of the soundness check: JSON values become TS
 * literals, and many checks go into one source file, whose lines remember
 * their case, so that one `tsc --strict` run per TypeScript version (the
 * global setup's `strict` program) reports which checks failed, by line.
 */
export const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * A JSON value as a TS expression. `JSON.stringify` alone is not enough: in
 * an object literal `"__proto__": v` sets the prototype instead of creating a
 * property, so that key is written as a computed key, which TS and JS both
 * treat as an ordinary property.
 */
export function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.keys(value).map((k) => {
      const key = k === "__proto__" ? `["__proto__"]` : JSON.stringify(k);
      return `${key}: ${literal((value as Record<string, unknown>)[k])}`;
    });
    return `{ ${members.join(", ")} }`;
  }
  // -0 has no JSON form; JSON.stringify writes 0, which is what a JSON peer would send.
  return JSON.stringify(value);
}

/** Accumulates a source file and remembers which lines belong to which case. */
export class CheckFile {
  private readonly lines: string[] = [];
  private readonly owners: (string | undefined)[] = [];

  /** Adds `text` (possibly several lines), attributed to `owner` when a tsc error lands in it. */
  add(text: string, owner?: string): void {
    for (const line of text.split("\n")) {
      this.lines.push(line);
      this.owners.push(owner);
    }
  }

  /** Appends another file's lines, keeping their owners. */
  append(other: CheckFile): void {
    this.lines.push(...other.lines);
    this.owners.push(...other.owners);
  }

  get size(): number {
    return this.lines.length;
  }

  text(): string {
    return this.lines.join("\n") + "\n";
  }

  /** The case owning 1-based `line`, if any. */
  ownerOf(line: number): string | undefined {
    return this.owners[line - 1];
  }
}
