// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * A contract's validators, loaded once. Generated contracts hand the runtime
 * a loader (a dynamic import of the tool's code in `chunks/`) so start-up pays for
 * none of them; the first call of a tool loads its module, and every later
 * call finds it here without waiting.
 *
 * The generated validators are compiled for copies made by `copyJson`
 * (json.ts), whose objects have no prototype, so they read properties without
 * own-property checks. The executor and the client validate only such copies.
 * `loadValidators`, the public way to reach them, hands out validators that
 * make that copy themselves.
 */
import type {
  AnyToolContract,
  ToolCopies,
  ToolValidators,
  ValidateFunction,
} from "./contract.js";
import { copyPlan } from "./copy-plan.js";
import { copyJson } from "./json.js";

/**
 * The call of a tool from which its schema-aware copies are used: plans made
 * from the schemas its contract serves (copy-plan.ts); its calls before use
 * the generic copy of json.ts, which gives the same copy, errors included,
 * only slower per call. Making a tool's two plans, and V8 compiling their
 * closures on their first runs, costs more than they save on a first call,
 * so a tool called a few times in a process (a serverless instance, most of
 * a large API) never makes them, and a tool called often has them from this
 * call on (docs/performance.md, logs of 2026-12-07 and 2026-12-08).
 */
export const COPIES_FROM_CALL = 8;

/** A tool's loaded code: its validators without its copies, and with them once they are at hand; how many calls have used it. */
interface Loaded {
  readonly contract: AnyToolContract;
  readonly generic: ToolValidators;
  full: ToolValidators | undefined;
  /** Loads copies a contract's own code supplies (ToolValidators.loadCopies); cleared once called. */
  loadCopies: (() => Promise<ToolCopies>) | undefined;
  calls: number;
}

const loaded = new WeakMap<AnyToolContract, Loaded>();
/** A load under way: calls that arrive before it settles wait for it, so a tool's code (a function of its group's module) is made once. */
const loading = new WeakMap<AnyToolContract, Promise<ToolValidators>>();

/** The validators one more call of a loaded tool uses: the copies from its COPIES_FROM_CALL-th call on, once they are at hand. */
function forCall(entry: Loaded): ToolValidators {
  if (entry.calls < COPIES_FROM_CALL && ++entry.calls < COPIES_FROM_CALL)
    return entry.generic;
  if (entry.full !== undefined) return entry.full;
  const load = entry.loadCopies;
  if (load === undefined) {
    // The copies planned from the served schemas (the handler's own value for an output, never the 2025-era wrapper).
    const { inputSchema, outputSchema } = entry.contract;
    entry.full = {
      ...entry.generic,
      copyInput: copyPlan(inputSchema),
      copyOutput: copyPlan(outputSchema),
    };
    return entry.full;
  }
  entry.loadCopies = undefined;
  // Calls go on with the generic copy until the module is in (the same result); one that cannot load leaves them on it.
  Promise.resolve()
    .then(load)
    .then(
      ({ copyInput, copyOutput }) => {
        entry.full = { ...entry.generic, copyInput, copyOutput };
      },
      () => undefined,
    );
  return entry.generic;
}

/**
 * The generated validators if they are at hand, else a promise of them (which
 * rejects if the module cannot load), for one call of the tool (see
 * COPIES_FROM_CALL). They must be given a `copyJson` copy.
 */
export function validatorsOf(
  contract: AnyToolContract,
): ToolValidators | Promise<ToolValidators> {
  const source = contract.validators;
  if (typeof source !== "function") return source;
  const cached = loaded.get(contract);
  if (cached !== undefined) return forCall(cached);
  const pending = loading.get(contract);
  if (pending !== undefined) return pending;
  const load = source().then(
    (module) => {
      // Keep only the functions, not the whole module namespace.
      const generic: ToolValidators = {
        validateInput: module.validateInput,
        validateOutput: module.validateOutput,
      };
      // Generated code supplies no copies (they are planned here); a contract's own code may, with its validators or a loader (contract.ts).
      const { copyInput, copyOutput, loadCopies } = module;
      const full =
        copyInput === undefined && copyOutput === undefined
          ? undefined
          : { ...generic, copyInput, copyOutput };
      const entry: Loaded = { contract, generic, full, loadCopies, calls: 0 };
      loaded.set(contract, entry);
      loading.delete(contract);
      return forCall(entry);
    },
    (error: unknown) => {
      // A module that failed to load is tried again by the next call, not remembered as failed.
      loading.delete(contract);
      throw error;
    },
  );
  loading.set(contract, load);
  return load;
}

/**
 * `validate` applied to a plain-JSON copy of its argument, as `execute` does:
 * inherited names (`constructor`, anything added to Object.prototype) never
 * count as present, and the caller's value is never modified (defaults are
 * applied to the copy). A value that is not JSON fails with one error saying
 * where.
 */
function onCopy(validate: ValidateFunction): ValidateFunction {
  const checked: ValidateFunction = (data: unknown): boolean => {
    const copy = copyJson(data);
    if (!copy.ok) {
      checked.errors = [
        {
          instancePath: "",
          keyword: "type",
          params: { type: "plain JSON data" },
          message: copy.message,
        },
      ];
      return false;
    }
    const valid = validate(copy.value);
    checked.errors = validate.errors ?? null;
    return valid;
  };
  checked.errors = null;
  return checked;
}

const copying = new WeakMap<AnyToolContract, ToolValidators>();

/** A contract's validators, loading them first if need be, for any caller's value (each validates a copy; see onCopy). */
export async function loadValidators(
  contract: AnyToolContract,
): Promise<ToolValidators> {
  const known = copying.get(contract);
  if (known !== undefined) return known;
  const generated = await validatorsOf(contract);
  const validators: ToolValidators = {
    validateInput: onCopy(generated.validateInput),
    validateOutput: onCopy(generated.validateOutput),
  };
  copying.set(contract, validators);
  return validators;
}
