/**
 * The files of the run's tool-code parts (part.ts), in the layout groups.ts
 * gives: each tool's own `validators/<tool>.ts`, or one `chunks/group-<n>.ts`
 * per group of tools.
 *
 * A group module holds each of its tools' validators in a function of its
 * own, exported, which the tool's contract calls on its first call
 * (contracts-module.ts). A tool's schema-aware copies are no code of the
 * project: the runtime plans them from the served schemas on the tool's
 * COPIES_FROM_CALL-th call (runtime/copy-plan.ts, runtime/validators.ts).
 * A validator several tools' code holds is not in their groups: it is
 * written once, in a shared module (shared.ts), and the tools' functions
 * load it from there. Each tool's names stay in its function's scope, so no
 * two tools' code can clash, and nothing of a tool's code is rewritten: its
 * statements are the ones its own module holds. The imports are the file's,
 * bound once for every tool (printer/file-builder.ts); a tool's locals are
 * the names its own module declares beside the same imports, so they never
 * shadow one. V8 only pre-parses a function until it runs, so loading a
 * group costs little more than reading it, and each tool's code is compiled
 * when its first call runs it.
 *
 * Ajv's code is untyped JavaScript, so a group module opts out of type
 * checking, like a validators module (`// @ts-nocheck`); its exports are
 * typed, so the contracts that import it are checked.
 */
import type { EmittedFile } from "../../ir.js";
import { code, FileBuilder, typeSymbol } from "../../printer/file-builder.js";
import { headerComment } from "../../printer/header.js";
import { jsDoc } from "../../printer/literal.js";
import { bodiesCode, printStandaloneModule, standaloneStatements, TS_PRELUDE } from "../validators.js";
import { toolCodePlaces, toolsPerChunk, type ToolCodePlace } from "./groups.js";
import { readPart, type ToolCodePart } from "./part.js";
import { sharedModules, sharedPlaces, sharedStatement, type SharedPlace } from "./shared.js";

const TOOL_VALIDATORS = typeSymbol("ToolValidators", "../runtime/contract.js");

/** A tool's code in a module of its own: `validators/<tool>.ts` (Ajv's code). */
function ownModules(part: ToolCodePart): EmittedFile[] {
  const header = headerComment(part.source);
  return [
    { path: `validators/${part.fileName}.ts`, text: printStandaloneModule(part.validators, "ts", "validators", header, `validators/${part.fileName}.ts`) },
  ];
}

type Member = { readonly part: ToolCodePart; readonly exportName: string };

/** A group's file builder, with each member's names reserved: an import they met would be shadowed where the tool's function uses it. */
function groupFile(module: string, parts: readonly Member[], names: (member: Member) => readonly string[]): FileBuilder {
  const file = new FileBuilder(`${module}.ts`, `${headerComment(parts.length === 1 ? parts[0]!.part.source : `${parts.length} definitions`)}\n${TS_PRELUDE}`, {
    wrap: false,
  });
  return file.reserve(...parts.flatMap(names));
}

/**
 * A group's validators module: each tool's validators in its exported function, in the order of the tools' names. A
 * validator several tools share (`shared`, by its text) is made by its shared module's function, loaded when the tool's
 * function runs: that function is then async (shared.ts).
 */
function groupModule(module: string, parts: readonly Member[], shared: ReadonlyMap<string, SharedPlace>): EmittedFile {
  const file = groupFile(module, parts, (p) => [p.exportName]);
  for (const { part, exportName } of parts) {
    const own = bodiesCode(part.validators.bodies.filter((b) => !shared.has(b.code)));
    const fromShared = part.validators.bodies.flatMap((b) => (shared.has(b.code) ? [sharedStatement(b, shared.get(b.code)!)] : []));
    const validators = [...fromShared, ...standaloneStatements(file, own, "chunks", undefined, false)];
    const names = part.validators.bodies.map((b) => b.exportName);
    const head =
      fromShared.length === 0 ? code`function ${exportName}(): ${TOOL_VALIDATORS}` : code`async function ${exportName}(): Promise<${TOOL_VALIDATORS}>`;
    const doc = jsDoc([`\`${part.name}\` (from ${part.source}): its validators, made on its first call.`])!;
    file.add(code`${doc}
export ${head} {
${validators.join("\n")}
  return { ${names.join(", ")} };
}`);
  }
  return { path: file.path, text: file.toText() };
}

/** How much code a part holds in its group's modules, in characters, about as a module prints it: not its shared validators (`shared`). */
function partBytes(part: ToolCodePart, shared: ReadonlyMap<string, SharedPlace>): number {
  let bytes = 0;
  for (const body of part.validators.bodies) if (!shared.has(body.code)) bytes += body.code.length;
  return bytes;
}

/**
 * The files written for the run's parts (every tool's own modules, or the
 * group modules), and where each tool's code is, for the contracts' loaders.
 */
export function joinToolCode(files: readonly EmittedFile[], setting: number | undefined): { files: EmittedFile[]; places: ReadonlyMap<string, ToolCodePlace> } {
  const parts = files.map(readPart).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Shared only where the tools' code is grouped: a tool's own module stays whole, read on its own.
  const shared = toolsPerChunk(parts.length, setting) > 1 ? sharedPlaces(parts) : new Map<string, SharedPlace>();
  const places = toolCodePlaces(
    parts.map((p) => p.name),
    setting,
    parts.reduce((sum, part) => sum + partBytes(part, shared), 0),
  );
  const groups = new Map<string, Member[]>();
  const own: EmittedFile[] = [];
  for (const part of parts) {
    const place: ToolCodePlace = places.get(part.name)!;
    if (place.kind === "own") own.push(...ownModules(part));
    else {
      const members = groups.get(place.module) ?? [];
      members.push({ part, exportName: place.exportName });
      groups.set(place.module, members);
    }
  }
  const groupFiles = [...groups].map(([module, members]) => groupModule(module, members, shared));
  return { files: [...own, ...groupFiles, ...sharedModules(parts, shared)], places };
}
