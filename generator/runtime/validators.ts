/**
 * A contract's validators, loaded once. Generated contracts hand the runtime
 * a loader (a dynamic import of `validators/<tool>.js`) so start-up pays for
 * none of them; the first call of a tool loads its module, and every later
 * call finds it here without waiting.
 */
import type { AnyToolContract, ToolValidators } from "./contract.js";

const loaded = new WeakMap<AnyToolContract, ToolValidators>();

/** The validators if they are at hand, else a promise of them (which rejects if the module cannot load). */
export function validatorsOf(contract: AnyToolContract): ToolValidators | Promise<ToolValidators> {
  const source = contract.validators;
  if (typeof source !== "function") return source;
  const cached = loaded.get(contract);
  if (cached !== undefined) return cached;
  return source().then((module) => {
    // Keep only the two functions, not the whole module namespace.
    // The copies too (copies/<tool>.js; see contract.ts): the one hook the executor's copies need here.
    const validators: ToolValidators = { validateInput: module.validateInput, validateOutput: module.validateOutput, copyInput: module.copyInput, copyOutput: module.copyOutput };
    loaded.set(contract, validators);
    return validators;
  });
}

/** A contract's validators, loading them first if need be. */
export async function loadValidators(contract: AnyToolContract): Promise<ToolValidators> {
  return validatorsOf(contract);
}
