/**
 * What every schema transform needs besides the schema itself: how to name a
 * `$defs` entry, and which of the two views of an input it is emitting.
 */
import type { JsonSchema } from "../../ir.js";
import type { TypeNode } from "../../printer/types/node.js";

export interface TypeContext {
  /**
   * Returns the TS type name to use for `#/$defs/<key>`: a local name, or an
   * imported one (the resolver does the importing, so only what is used gets
   * imported). Throws for a key it does not know.
   */
  readonly resolveRef: (key: string) => string;
  /**
   * `true` for an input after Ajv applied defaults: a property with a
   * `default` is then always present, so it is emitted as required.
   */
  readonly resolved: boolean;
  /**
   * Set inside `anyOf`/`oneOf` branches. Ajv never assigns defaults there
   * (they are "composite rules"), so `resolved` must not make them required.
   */
  readonly inComposite?: boolean;
}

/** Renders a subschema; transforms recurse through this instead of importing the dispatcher. */
export type RenderSchema = (schema: JsonSchema, ctx: TypeContext) => TypeNode;
