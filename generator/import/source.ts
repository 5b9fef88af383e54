/**
 * Reads what `toolc import` is given: one JSON document (a tools/list result
 * in any of its common wrappings, or a bare array of tools, or one tool), or
 * a folder of such files (`*.json`, and `*.snap` tool snapshots, which are
 * JSON). Each tool comes back with the file and pointer it was found at.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { pointerJoin, Reporter } from "./problems.js";
import { isJsonObject } from "../schema/json.js";
import type { JsonObject } from "../ir.js";

export interface SourceTool {
  readonly file: string;
  readonly pointer: string;
  readonly tool: JsonObject;
}

export interface Source {
  readonly tools: readonly SourceTool[];
  /** Problems that stop the whole import (unreadable or malformed documents). */
  readonly reporters: readonly Reporter[];
}

const EXTENSIONS = [".json", ".snap"];

function parseJson(text: string, report: Reporter): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    report.error("", `not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** Where the tool list sits in a document: `{tools}`, `{result: {tools}}`, a bare array, or one tool. */
function toolList(doc: unknown): { list: unknown[]; pointer: string } | undefined {
  if (Array.isArray(doc)) return { list: doc, pointer: "" };
  if (!isJsonObject(doc)) return undefined;
  if (Array.isArray(doc.tools)) return { list: doc.tools, pointer: "/tools" };
  if (isJsonObject(doc.result) && Array.isArray(doc.result.tools)) return { list: doc.result.tools, pointer: "/result/tools" };
  if ("inputSchema" in doc || "name" in doc) return { list: [doc], pointer: "" };
  return undefined;
}

function toolsOf(file: string, text: string): { tools: SourceTool[]; report: Reporter } {
  const report = new Reporter(file);
  const doc = parseJson(text, report);
  if (report.failed) return { tools: [], report };
  const found = toolList(doc);
  if (!found) {
    report.error("", 'expected a tools/list result ({"tools": [...]} or {"result": {"tools": [...]}}), an array of tools, or one tool object');
    return { tools: [], report };
  }
  const single = found.list.length === 1 && found.list[0] === doc;
  const tools: SourceTool[] = [];
  found.list.forEach((tool, i) => {
    const pointer = single ? "" : pointerJoin(found.pointer, i);
    if (isJsonObject(tool)) tools.push({ file, pointer, tool });
    else report.error(pointer, "a tool must be a JSON object");
  });
  return { tools, report };
}

function readText(path: string, report: Reporter): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    report.error("", `cannot read: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** How a file is named in problems: relative to `cwd` when inside it. */
function display(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** `source` resolves against `cwd`. */
export function readSource(sourcePath: string, cwd: string): Source {
  const source = resolve(cwd, sourcePath);
  let isDir: boolean;
  try {
    isDir = statSync(source).isDirectory();
  } catch {
    const report = new Reporter(display(source, cwd));
    report.error("", "no such file or folder");
    return { tools: [], reporters: [report] };
  }
  const files = isDir
    ? readdirSync(source)
        .filter((f) => EXTENSIONS.some((e) => f.endsWith(e)))
        .sort()
        .map((f) => join(source, f))
    : [source];
  const tools: SourceTool[] = [];
  const reporters: Reporter[] = [];
  for (const file of files) {
    const report = new Reporter(display(file, cwd));
    const text = readText(file, report);
    const read = text === undefined ? { tools: [], report } : toolsOf(report.file, text);
    tools.push(...read.tools);
    reporters.push(read.report);
  }
  if (isDir && files.length === 0) {
    const report = new Reporter(display(source, cwd));
    report.error("", `no ${EXTENSIONS.map((e) => `*${e}`).join(" or ")} files in this folder`);
    reporters.push(report);
  }
  return { tools, reporters };
}
