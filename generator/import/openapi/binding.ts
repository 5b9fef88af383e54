/**
 * How a contract's input becomes an HTTP request and the response becomes
 * its output: the data the generated handlers carry per tool, and that the
 * copied runtime (runtime/openapi-http.ts) acts on. Kept as plain JSON so it
 * is written into the handlers module as a literal.
 */
import type { BodyEncoding, ParameterLocation } from "./model.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface ParameterBinding {
  /** The input property that holds the value; absent for a fixed value. */
  readonly key?: string;
  /** The name on the wire. */
  readonly name: string;
  readonly in: ParameterLocation;
  readonly style: string;
  readonly explode: boolean;
  /** A fixed value the curation set; the input has no property for it. */
  readonly value?: Json;
}

export interface BodyBinding {
  readonly encoding: BodyEncoding;
  readonly mediaType: string;
  /** The input property holding the whole body, or, when the body's properties are the input's own, their names. */
  readonly key?: string;
  readonly keys?: readonly string[];
}

export type SuccessBinding =
  | { readonly kind: "json"; readonly wrap?: string }
  | { readonly kind: "empty" }
  | { readonly kind: "content"; readonly block: "text" | "image" | "audio" | "resource" };

export interface HttpBinding {
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly ParameterBinding[];
  readonly body?: BodyBinding;
  readonly success: SuccessBinding;
  /** Declared rejections by HTTP status. */
  readonly errors: Readonly<Record<string, string>>;
  /** Alternatives of security scheme names, as the description lists them. */
  readonly security: readonly (readonly string[])[];
}
