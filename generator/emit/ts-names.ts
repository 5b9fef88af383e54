/**
 * TypeScript and file names of what the IR describes by its contract names,
 * for the targets that print TypeScript or write a file per tool (the types,
 * the validators, code mode, the catalog, the evals pack): the IR says a tool
 * is `get_order` and a `$defs` entry is local to its output, and this module
 * says what they are called in TypeScript and on disk, once for every target.
 */
import type { DefOrigin } from "../ir.js";
import { pascalCase } from "../normalize/names.js";

/** A tool's local `$defs` entry as a TypeScript type: `get_order`'s output `Page` → `GetOrderOutputPage`. */
export function localTypeName(tool: { readonly name: string }, origin: DefOrigin & { readonly kind: "local" }): string {
  return `${pascalCase(tool.name)}${origin.schema === "input" ? "Input" : "Output"}${pascalCase(origin.name)}`;
}

/** Tool names seen this process, by their TypeScript stem: every tool's is asked for by several emitters per run. */
const typeNames = new Map<string, string>();

/** The PascalCase stem of a tool's TypeScript names: `get_order` → `GetOrder` (`GetOrderInput`, `GetOrderHandler`...). */
export function toolTypeName(tool: { readonly name: string }): string {
  let name = typeNames.get(tool.name);
  if (name === undefined) {
    name = pascalCase(tool.name);
    typeNames.set(tool.name, name);
  }
  return name;
}

/** The stem of a tool's own files: `tools/<stem>.ts`, `validators/<stem>.ts`, `schemas/<stem>.json`, the catalog's `tools/<stem>.md`. The tool's name, which the name lint keeps apart from every other's even on a case-insensitive file system. */
export function toolFileName(tool: { readonly name: string }): string {
  return tool.name;
}
