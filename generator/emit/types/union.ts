/**
 * `anyOf` and `oneOf`: JSON Schema 2020-12 Core §10.2.1.2 and §10.2.1.3. An
 * instance valid against any (or exactly one) branch is valid, so both are a
 * TS union; TS cannot express "exactly one", which the validator keeps.
 * A nullable union `anyOf: [X, {type: "null"}]` falls out as `X | null`.
 */
import type { JsonSchema } from "../../ir.js";
import type { RenderSchema, TypeContext } from "./context.js";
import { unionOf, type TypeNode } from "../../printer/types/node.js";

/**
 * The union of the branches. Branches render with `inComposite` set: Ajv
 * assigns no defaults inside `anyOf`/`oneOf`, so a resolved input must not
 * claim those properties are present.
 */
export function unionType(branches: readonly JsonSchema[], ctx: TypeContext, render: RenderSchema): TypeNode {
  const branchCtx: TypeContext = { ...ctx, inComposite: true };
  return unionOf(branches.map((b) => render(b, branchCtx)));
}
