/**
 * One Ajv instance per configuration for the whole process. Creating an
 * instance (formats, keywords, the 2020-12 meta-schema) costs far more than
 * compiling a typical tool schema, and Ajv caches each compiled schema by
 * object identity, so normalize and the contract-test checker, which compile
 * the very same IR schema objects, compile each of them once.
 *
 * Schemas here carry no `$id`, so compiling many of them in one instance is
 * no different from compiling each in a fresh one. Ajv keeps every schema it
 * compiled, so a run releases the instances when it ends: a long-lived caller
 * (a watch loop, a build plugin) must not grow with every run.
 */
import { createAjv, type AjvPurpose, type ToolcAjv } from "./ajv.js";

const instances = new Map<string, ToolcAjv>();

/** The shared instance for `purpose` (never the standalone one: that belongs to the validator emitter). */
export function sharedAjv(purpose: Omit<AjvPurpose, "standalone" | "draft07" | "copiedData">): ToolcAjv {
  const key = JSON.stringify([purpose.applyDefaults, purpose.strictTypes ?? true, purpose.validateSchema ?? true]);
  let ajv = instances.get(key);
  if (ajv === undefined) {
    ajv = createAjv(purpose);
    instances.set(key, ajv);
  }
  return ajv;
}

/** Drops the instances and everything they compiled; the next run starts fresh ones. */
export function releaseSharedAjv(): void {
  instances.clear();
}
