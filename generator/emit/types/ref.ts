/**
 * `$ref`: JSON Schema 2020-12 Core §8.2.3.1. After normalization every
 * reference points into the root's `$defs` (Core §8.2.4), as `#/$defs/<key>`;
 * the context turns the key into a TS type name.
 */
import { defsEntryName } from "../../schema/refs.js";
import type { TypeContext } from "./context.js";
import { reference, type ReferenceType } from "../../printer/types/node.js";

/**
 * The `$defs` key a reference points to: the JSON Pointer token (RFC 6901),
 * after URI fragment decoding. Throws for any other form, since an
 * unresolved reference must not quietly become `unknown`.
 */
export function refKey(ref: string): string {
  const key = defsEntryName(ref);
  if (key === undefined) throw new Error(`unsupported $ref ${JSON.stringify(ref)}: expected "#/$defs/<name>"`);
  return key;
}

/** The TS type a `$ref` stands for. */
export function refType(ref: string, ctx: TypeContext): ReferenceType {
  return reference(ctx.resolveRef(refKey(ref)));
}
