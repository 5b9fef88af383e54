/**
 * TypeScript names of what the IR describes by its contract names, for the
 * targets that print TypeScript (the types, code mode): the IR says a
 * `$defs` entry is local to a tool's input or output, and this module says
 * what that type is called in TypeScript, once for every target that prints
 * it.
 */
import type { DefOrigin } from "../ir.js";
import { pascalCase } from "../normalize/names.js";

/** A tool's local `$defs` entry as a TypeScript type: `get_order`'s output `Page` → `GetOrderOutputPage`. */
export function localTypeName(tool: { readonly name: string }, origin: DefOrigin & { readonly kind: "local" }): string {
  return `${pascalCase(tool.name)}${origin.schema === "input" ? "Input" : "Output"}${pascalCase(origin.name)}`;
}
