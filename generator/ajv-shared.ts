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
import type { AnySchema } from "ajv";
import { createAjv, type AjvPurpose, type ToolcAjv } from "./ajv.js";

/** A shared instance, and the schema objects it has compiled (Ajv holds each of them until the instance is released). */
interface SharedInstance {
  readonly ajv: ToolcAjv;
  readonly compiled: WeakSet<object>;
  held: number;
}

const instances = new Map<string, SharedInstance>();

/** The shared instance for `purpose` (never the standalone one: that belongs to the validator emitter). */
export function sharedAjv(purpose: Omit<AjvPurpose, "standalone" | "draft07" | "copiedData">): ToolcAjv {
  const key = JSON.stringify([purpose.applyDefaults, purpose.strictTypes ?? true, purpose.validateSchema ?? true]);
  let instance = instances.get(key);
  if (instance === undefined) {
    instance = counted(createAjv(purpose));
    instances.set(key, instance);
  }
  return instance.ajv;
}

/**
 * Notes each distinct schema object `ajv` compiles, as Ajv's own cache (by
 * object identity) keeps it, so a run can tell what the shared instances hold
 * without reading Ajv's private state.
 */
/** What Ajv's `compile` returns, named through toolc's instance type (the documented entry point), not Ajv's internal modules. */
type AnyValidateFunction = ReturnType<ToolcAjv["compile"]>;

function counted(ajv: ToolcAjv): SharedInstance {
  const instance: SharedInstance = { ajv, compiled: new WeakSet(), held: 0 };
  const compile = ajv.compile.bind(ajv) as (schema: AnySchema, meta?: boolean) => AnyValidateFunction;
  ajv.compile = ((schema: AnySchema, meta?: boolean): AnyValidateFunction => {
    const validate = compile(schema, meta);
    if (typeof schema === "object" && !instance.compiled.has(schema)) {
      instance.compiled.add(schema);
      instance.held++;
    }
    return validate;
  }) as ToolcAjv["compile"];
  return instance;
}

/** How many schemas the shared instances have compiled since they were started: what they hold until released. */
export function sharedAjvHeldSchemas(): number {
  let held = 0;
  for (const instance of instances.values()) held += instance.held;
  return held;
}

/** Drops the instances and everything they compiled; the next run starts fresh ones. */
export function releaseSharedAjv(): void {
  instances.clear();
}
