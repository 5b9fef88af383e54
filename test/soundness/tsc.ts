/**
 * The type-checking half of the soundness check: JSON values become TS
 * literals, many checks go into one source file, and one `tsc --strict` run
 * per TypeScript version reports which checks failed, by line.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = new URL("../../", import.meta.url).pathname;

export const TYPESCRIPTS = [
  { version: "5.9", bin: join(ROOT, "node_modules/typescript/bin/tsc") },
  { version: "6.0", bin: join(ROOT, "node_modules/typescript-6/bin/tsc") },
] as const;

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

export interface TscResult {
  /** Owner → the first error message tsc gave for it. */
  readonly failures: Map<string, string>;
  /** Errors on lines no case owns (a broken preamble or import). */
  readonly stray: string[];
}

const ERROR_LINE = /^(.*)\((\d+),(\d+)\): error (TS\d+: .*)$/;

/** A temp project (ESM, with node_modules linked) to put check files in. */
export function makeProject(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, "package.json"), '{"type":"module"}\n');
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** Runs one tsc --strict over `file` (inside `dir`) and sorts the errors by case. */
export function runTsc(bin: string, dir: string, name: string, file: CheckFile): TscResult {
  const path = join(dir, name);
  writeFileSync(path, file.text());
  const config = {
    compilerOptions: {
      strict: true, noEmit: true, target: "ES2022", lib: ["ES2023"], module: "NodeNext", moduleResolution: "NodeNext",
      skipLibCheck: true, types: ["node"], typeRoots: [join(ROOT, "node_modules/@types")], noErrorTruncation: true,
    },
    files: [path],
  };
  const project = join(dir, `tsconfig.${name}.json`);
  writeFileSync(project, JSON.stringify(config));
  let out = "";
  try {
    execFileSync(process.execPath, [bin, "-p", project, "--pretty", "false"], { encoding: "utf8", maxBuffer: 256 << 20 });
  } catch (e) {
    out = String((e as { stdout?: string }).stdout ?? e);
  }
  const failures = new Map<string, string>();
  const stray: string[] = [];
  for (const line of out.split("\n")) {
    const m = ERROR_LINE.exec(line);
    if (!m) continue;
    const owner = m[1].endsWith(name) ? file.ownerOf(Number(m[2])) : undefined;
    if (owner === undefined) stray.push(line);
    else if (!failures.has(owner)) failures.set(owner, m[4]);
  }
  return { failures, stray };
}
