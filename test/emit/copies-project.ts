/**
 * What the copies tests share: generated chunks (and the shared modules of
 * named types) written as JavaScript into a temp folder with the runtime
 * they import, loaded from there; and the comparison of a schema-aware copy
 * with the generic walk of runtime/json.ts, which it must match exactly.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import type { EmittedFile, JsonObject } from "../../generator/ir.js";
import { hostileValue, mutated } from "../fuzz/hostile.js";
import { ownObject, SchemaArbitraries } from "../soundness/schema-arbitrary.js";
import { toJs, writeValidatorRuntime } from "../helpers/transpile.js";

const ROOT = new URL("../../", import.meta.url).pathname;

export type Copy = (value: unknown) => { ok: true; value: unknown } | { ok: false; message: string };
export interface CopiesModule {
  copyInput: Copy;
  copyOutput: Copy;
}

/** A temp folder holding the runtime the chunks import; `write` adds generated files (as .js), `load` imports one. */
export class CopiesProject {
  readonly dir = mkdtempSync(join(tmpdir(), "toolc-copies-"));
  copyJson!: Copy;

  async setUp(): Promise<this> {
    writeFileSync(join(this.dir, "package.json"), '{"type":"module"}\n');
    symlinkSync(join(ROOT, "node_modules"), join(this.dir, "node_modules"), "dir");
    writeValidatorRuntime(this.dir);
    // The copies import runtime/json.js, which imports issues.js, sensitive.js and pointer.js.
    for (const name of ["json", "issues", "sensitive", "pointer"]) {
      writeFileSync(join(this.dir, "runtime", `${name}.js`), toJs(readFileSync(join(ROOT, "generator/runtime", `${name}.ts`), "utf8"), `${name}.ts`));
    }
    this.copyJson = ((await import(pathToFileURL(join(this.dir, "runtime/json.js")).href)) as { copyJson: Copy }).copyJson;
    return this;
  }

  write(files: readonly EmittedFile[]): void {
    for (const f of files) {
      const path = join(this.dir, f.path.replace(/\.ts$/, ".js"));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, toJs(f.text, f.path));
    }
  }

  async load(path: string): Promise<CopiesModule> {
    return (await import(pathToFileURL(join(this.dir, path)).href)) as CopiesModule;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Both copies of `value`, and how they differ ("" when they do not). */
  compare(copy: Copy, value: unknown): string {
    const schemaAware = copy(value);
    const generic = this.copyJson(value);
    if (schemaAware.ok !== generic.ok) return `one copy failed: ${JSON.stringify(schemaAware.ok ? generic : schemaAware)}`;
    if (!schemaAware.ok || !generic.ok) return schemaAware.ok || generic.ok || schemaAware.message === generic.message ? "" : `messages: ${schemaAware.message} / ${generic.message}`;
    return difference(schemaAware.value, generic.value);
  }
}

/** Where two copies differ ("" when they do not): keys and their order, prototypes, array-ness and leaves all count. */
export function difference(a: unknown, b: unknown, at = "$"): string {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return `${at}: array shapes differ`;
    for (let i = 0; i < a.length; i++) {
      if (!(i in a) || !(i in b)) return `${at}[${i}]: a hole`;
      const d = difference(a[i], b[i], `${at}[${i}]`);
      if (d !== "") return d;
    }
    return "";
  }
  if (a !== null && typeof a === "object" && b !== null && typeof b === "object") {
    if (Object.getPrototypeOf(a) !== null || Object.getPrototypeOf(b) !== null) return `${at}: a copy has a prototype`;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (JSON.stringify(ka) !== JSON.stringify(kb)) return `${at}: keys ${JSON.stringify(ka)} against ${JSON.stringify(kb)}`;
    for (const k of ka) {
      const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
      if (d !== "") return d;
    }
    return "";
  }
  return Object.is(a, b) ? "" : `${at}: ${String(a)} against ${String(b)}`;
}

/** `value` with its own keys reversed (so a shape's order no longer holds), recursively when `deep`. */
function reversed(value: unknown, deep: boolean): unknown {
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const entries = Object.keys(value).map((k) => [k, deep ? reversed((value as Record<string, unknown>)[k], deep) : (value as Record<string, unknown>)[k]] as const);
  return ownObject(entries.reverse());
}

/** Values of `schema`'s shape, hostile edits of them, the same with their keys reversed, and hostile values. */
export function shaped(schema: JsonObject): fc.Arbitrary<unknown> {
  const base = new SchemaArbitraries(schema as never, 5).root$();
  return fc.oneof(base, mutated(base), fc.tuple(base, fc.boolean()).map(([v, deep]) => reversed(v, deep)), hostileValue);
}
