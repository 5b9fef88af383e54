/**
 * The validators the diff asks about single values: toolc's own Ajv
 * configuration (generator/ajv.ts), over a node of a served schema with the
 * side's `$defs`. Input is checked the way the server checks it, defaults
 * applied first; output the way the old typed client checks it, with the
 * properties it does not know dropped first where it drops them.
 */
import type { ValidateFunction } from "ajv";
import { createAjv, type ToolcAjv } from "../ajv.js";
import type { JsonValue } from "../ir.js";
import { dropUnknownProperties } from "../runtime/unknown-properties.js";
import { standalone, type Piece, type SchemaSide } from "./nodes.js";

export type Direction = "input" | "output";

let instances: { input: ToolcAjv; output: ToolcAjv } | undefined;
const compiled = new Map<string, ValidateFunction | null>();

function ajvFor(direction: Direction): ToolcAjv {
  instances ??= {
    input: createAjv({ applyDefaults: true, strictTypes: false, validateSchema: false }),
    output: createAjv({ applyDefaults: false, strictTypes: false, validateSchema: false }),
  };
  return instances[direction];
}

/** Forgets every compiled validator: a diff run calls it when done, so a long-lived process does not grow. */
export function releaseValidators(): void {
  instances = undefined;
  compiled.clear();
}

function validatorFor(schema: object, direction: Direction): ValidateFunction | undefined {
  const key = `${direction}:${JSON.stringify(schema)}`;
  let fn = compiled.get(key);
  if (fn === undefined) {
    try {
      fn = ajvFor(direction).compile(schema);
    } catch {
      // A node that does not compile on its own (strict mode sees it out of context): it is not asked about.
      fn = null;
    }
    compiled.set(key, fn);
  }
  return fn ?? undefined;
}

/**
 * Whether `value` is accepted at the node `pieces` of `side`, as a caller of
 * that side sees it: for input after the node's defaults, for output after
 * the client dropped the properties it does not know. undefined when the
 * node cannot be checked on its own.
 */
export function accepts(side: SchemaSide, pieces: readonly Piece[], direction: Direction, value: JsonValue, client = false): boolean | undefined {
  const schema = standalone(pieces, side);
  const validate = validatorFor(schema, direction);
  if (!validate) return undefined;
  const copy = structuredClone(value);
  if (client && direction === "output" && pieces.every((p) => p.drop)) dropUnknownProperties(schema as never, copy);
  return validate(copy) === true;
}
