/**
 * What `toolc import` reports. A problem names the source file and the JSON
 * pointer of the node it is about, because the source is JSON, not YAML:
 * there are no contract lines to point at yet.
 */

export type Severity = "error" | "warning";

export interface Problem {
  readonly severity: Severity;
  /** The source file, as the user named it (relative when they gave a relative path). */
  readonly file: string;
  /** RFC 6901 pointer of the offending node in that file; "" is the whole document. */
  readonly pointer: string;
  readonly message: string;
}

/** Appends RFC 6901 reference tokens to a pointer (the runtime's pointer module, shared by all of toolc). */
export { pointerJoin } from "../schema/pointer.js";

export function formatProblem(p: Problem): string {
  const where = p.pointer === "" ? p.file : `${p.file}: ${p.pointer}`;
  return `${where}: ${p.severity}: ${p.message}`;
}

/** Collects problems for one place in one file, so callers only pass the pointer tail. */
export class Reporter {
  readonly problems: Problem[] = [];
  constructor(readonly file: string) {}

  error(pointer: string, message: string): void {
    this.problems.push({ severity: "error", file: this.file, pointer, message });
  }

  warn(pointer: string, message: string): void {
    this.problems.push({ severity: "warning", file: this.file, pointer, message });
  }

  get failed(): boolean {
    return this.problems.some((p) => p.severity === "error");
  }
}
