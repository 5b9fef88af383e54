/**
 * `allOf`: JSON Schema 2020-12 Core §10.2.1.1. An instance must be valid
 * against every branch, so it is a TS intersection. (Ajv does assign defaults
 * inside `allOf`, so the context passes through unchanged.)
 */
import type { JsonSchema } from "../../ir.js";
import type { RenderSchema, TypeContext } from "./context.js";
import { intersectionOf, type TypeNode } from "../../printer/types/node.js";

/** The intersection of the branches. */
export function allOfType(branches: readonly JsonSchema[], ctx: TypeContext, render: RenderSchema): TypeNode {
  return intersectionOf(branches.map((b) => render(b, ctx)));
}
