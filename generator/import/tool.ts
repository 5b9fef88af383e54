/**
 * Maps one MCP tool object (as in a tools/list result) to a toolc contract.
 * Annotations become `effect`/`idempotent`/`openWorld` so that the
 * annotations toolc serves back mean what the original's meant, MCP's
 * defaults included (readOnlyHint false, destructiveHint true,
 * idempotentHint false, openWorldHint true).
 */
import { isContractIcon } from "../load/meta-schema.js";
import { JSON_SCHEMA_2020_12 } from "../normalize/tool.js";
import { pointerJoin, type Reporter } from "./problems.js";
import { convertRootSchema } from "./schema.js";
import { isJsonObject } from "../schema/json.js";
import type { JsonObject } from "../ir.js";

export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** What an MCP tool without `outputSchema` gets: any object, which is all structuredContent can be. */
export const OPEN_OUTPUT: JsonObject = { type: "object", additionalProperties: true };

export interface ImportedTool {
  readonly name: string;
  /** The contract, keys in the order they are written. */
  readonly contract: JsonObject;
  /** Comment lines written above the contract: decisions the user should review. */
  readonly notes: readonly string[];
}

/** Tool fields toolc has no counterpart for; reported so nobody is surprised they are gone. */
const DROPPED_FIELDS: Record<string, string> = {
  _meta: "toolc serves its own _meta (the contract version)",
  execution: "toolc does not declare task support",
};
const KNOWN_FIELDS = new Set(["name", "title", "description", "icons", "inputSchema", "outputSchema", "annotations"]);

type Effect = "read" | "write" | "destructive";

function hint(annotations: JsonObject, key: string): boolean | undefined {
  const value = annotations[key];
  return typeof value === "boolean" ? value : undefined;
}

/**
 * readOnlyHint wins (MCP: destructiveHint is meaningful only when it is
 * false). A tool that says it is not read-only but not whether it is
 * destructive is destructive by MCP's default. A tool that says neither is
 * unknown: imported as `write`, with a note to review.
 */
function effectOf(annotations: JsonObject, at: string, report: Reporter, notes: string[]): Effect {
  const readOnly = hint(annotations, "readOnlyHint");
  const destructive = hint(annotations, "destructiveHint");
  if (readOnly === true) return "read";
  if (destructive === true) return "destructive";
  if (destructive === false) return "write";
  if (readOnly === false) {
    notes.push("effect: destructive because readOnlyHint is false and destructiveHint is absent (MCP's default is true)");
    return "destructive";
  }
  report.warn(at, "no readOnlyHint or destructiveHint: the effect is unknown; imported as `effect: write`, review it");
  notes.push("effect: write is a guess: the source gave neither readOnlyHint nor destructiveHint; review it");
  return "write";
}

/** `idempotent` only when it differs from toolc's default for the effect (true for read, false otherwise). */
function idempotentOf(annotations: JsonObject, effect: Effect): boolean | undefined {
  const value = hint(annotations, "idempotentHint");
  // MCP: idempotentHint means nothing on a read-only tool unless stated, and MCP's default (false) is toolc's for writes.
  if (value === undefined) return undefined;
  return value === (effect === "read") ? undefined : value;
}

/** MCP's openWorldHint defaults to true, toolc's openWorld to false: an absent hint is written as true. */
function openWorldOf(annotations: JsonObject, notes: string[]): boolean | undefined {
  const value = hint(annotations, "openWorldHint");
  if (value === false) return undefined;
  if (value === undefined) notes.push("openWorld: true because openWorldHint is absent (MCP's default is true)");
  return true;
}

function titleOf(tool: JsonObject, annotations: JsonObject, at: string, report: Reporter): string | undefined {
  const top = typeof tool.title === "string" && tool.title !== "" ? tool.title : undefined;
  const inner = typeof annotations.title === "string" && annotations.title !== "" ? annotations.title : undefined;
  if (top !== undefined && inner !== undefined && top !== inner) {
    report.warn(pointerJoin(at, "annotations", "title"), `differs from the tool's title; toolc serves one title, ${JSON.stringify(top)}, in both places`);
  }
  return top ?? inner;
}

function descriptionOf(tool: JsonObject, name: string, title: string | undefined, at: string, report: Reporter): string {
  if (typeof tool.description === "string" && tool.description.trim() !== "") return tool.description;
  const stand = title ?? name;
  report.warn(
    pointerJoin(at, "description"),
    `missing or empty: a contract needs one; used the ${title === undefined ? "name" : "title"} ${JSON.stringify(stand)}, write a real one`,
  );
  return stand;
}

/** The icons toolc can serve back as they were; any other is dropped with a warning at its place. */
function iconsOf(tool: JsonObject, at: string, report: Reporter): JsonObject[] | undefined {
  const icons = tool.icons;
  const here = pointerJoin(at, "icons");
  if (icons === undefined) return undefined;
  if (!Array.isArray(icons)) {
    report.warn(here, "dropped: `icons` must be an array of icons");
    return undefined;
  }
  const kept = icons.filter((icon, i) => {
    if (isContractIcon(icon)) return true;
    report.warn(
      pointerJoin(here, String(i)),
      "dropped: an icon needs `src` (an http(s): URL or a data: URI) and may have only `mimeType`, `sizes` and `theme` as MCP defines them",
    );
    return false;
  });
  return kept.length === 0 ? undefined : (kept as JsonObject[]);
}

/**
 * A source that states JSON Schema 2020-12 on either root schema gets it as
 * the contract's `$schema`, so toolc serves it as the source did (SEP-1613).
 * Older drafts are converted to 2020-12 and their `$schema` is not kept.
 */
function dialectOf(tool: JsonObject, notes: string[]): string | undefined {
  const stated = (key: string): boolean => isJsonObject(tool[key]) && (tool[key] as JsonObject).$schema === JSON_SCHEMA_2020_12;
  const input = stated("inputSchema");
  const output = stated("outputSchema");
  if (!input && !output) return undefined;
  if (input !== output) notes.push(`$schema: the source states 2020-12 on its ${input ? "input" : "output"} schema only; toolc serves it on both`);
  return JSON_SCHEMA_2020_12;
}

function schemaOf(tool: JsonObject, key: "inputSchema" | "outputSchema", at: string, report: Reporter): JsonObject | undefined {
  const schema = tool[key];
  const here = pointerJoin(at, key);
  if (!isJsonObject(schema)) {
    report.error(here, `${key} must be a JSON object`);
    return undefined;
  }
  // An outputSchema may have any root (SEP-2106, MCP 2026-07-28); an inputSchema is always an object.
  if (key === "inputSchema" && schema.type !== "object")
    report.error(pointerJoin(here, "type"), `the root of ${key} must be \`type: object\` (MCP requires it), found ${JSON.stringify(schema.type)}`);
  return convertRootSchema(schema, here, report);
}

function reportUnusedFields(tool: JsonObject, at: string, report: Reporter): void {
  for (const key of Object.keys(tool)) {
    if (KNOWN_FIELDS.has(key)) continue;
    report.warn(pointerJoin(at, key), `dropped: ${DROPPED_FIELDS[key] ?? "not part of an MCP tool definition toolc knows"}`);
  }
}

/** The name the contract file gets; "." and ".." match the MCP pattern but are not file names. */
export function nameProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return "the tool has no `name` string";
  if (!TOOL_NAME.test(name)) return `tool name ${JSON.stringify(name)} is not a valid MCP tool name (1 to 128 of A-Z a-z 0-9 _ . -)`;
  if (name === "." || name === "..") return `tool name ${JSON.stringify(name)} cannot be a file name`;
  return undefined;
}

/** Maps `tool` (at pointer `at`); `undefined` when it has errors, which `report` then holds. */
export function importTool(tool: JsonObject, name: string, at: string, report: Reporter): ImportedTool | undefined {
  const notes: string[] = [];
  const annotations = isJsonObject(tool.annotations) ? tool.annotations : {};
  const effect = effectOf(annotations, pointerJoin(at, "annotations"), report, notes);
  const title = titleOf(tool, annotations, at, report);
  const description = descriptionOf(tool, name, title, at, report);
  const idempotent = idempotentOf(annotations, effect);
  const openWorld = openWorldOf(annotations, notes);
  const icons = iconsOf(tool, at, report);
  const dialect = dialectOf(tool, notes);
  const input = schemaOf(tool, "inputSchema", at, report);
  if (tool.outputSchema === undefined) notes.push("output: any object, because the source declares no outputSchema; the handler must return an object");
  const output = tool.outputSchema === undefined ? OPEN_OUTPUT : schemaOf(tool, "outputSchema", at, report);
  reportUnusedFields(tool, at, report);
  if (report.failed || input === undefined || output === undefined) return undefined;
  const contract: JsonObject = {
    ...(dialect === undefined ? {} : { $schema: dialect }),
    name,
    version: 1,
    ...(title === undefined ? {} : { title }),
    description,
    ...(icons === undefined ? {} : { icons }),
    effect,
    ...(idempotent === undefined ? {} : { idempotent }),
    ...(openWorld === undefined ? {} : { openWorld }),
    input,
    output,
  };
  return { name, contract, notes };
}
