/**
 * How a contract's input becomes an HTTP request and the response becomes
 * its output: the data the generated handlers carry per tool. The types are
 * the copied runtime's own (openapi-runtime/openapi-http.ts), so what the
 * import writes is what the runtime reads; the values are plain JSON, written
 * into the handlers module as a literal.
 */
import type { HttpOperation, ParameterBinding } from "../../openapi-runtime/openapi-http.js";

export type { ParameterBinding };
export type HttpBinding = HttpOperation<string>;
export type BodyBinding = NonNullable<HttpBinding["body"]>;
export type SuccessBinding = HttpBinding["success"];
