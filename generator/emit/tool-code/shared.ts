/**
 * Validators several tools share, written once. Ajv compiles a schema the
 * same way wherever it appears (emit/validators.ts), so tools whose input
 * (or output) schemas are the same print the same validator: on GitHub's
 * 1,223 tools the inputs are 694 distinct texts and the outputs 446. In a
 * grouped project (groups.ts), a validator whose text, after the rewrites,
 * is in more than one tool's code is written once, in a shared module
 * `chunks/shared-<n>.ts`, as an exported function that makes it; each of
 * those tools' functions in its group module calls that function instead of
 * holding the code. The text is the key, nothing looser: two validators are
 * shared only when they would print the same, so each tool's validator does
 * exactly what its own copy did, and, made by a call of that function, is
 * still a function of its own (its `errors` are the tool's).
 *
 * Where a shared validator is written depends on its text alone: its
 * module is picked by linear hashing (groups.ts's groupOf) of a hash of the
 * text among as many modules as the shared code needs (SHARED_BYTES each on
 * average), and its export is named from the same hash. Not, say, the group
 * of the first tool by name that uses it: that home would move whenever a
 * tool earlier by name came to use it, or its group split, and every other
 * user's import with it. So adding, editing or removing a tool changes the
 * shared modules only when it makes a validator shared or no longer shared
 * (or, once in a while, grows the count of modules by one, which splits one
 * module in two); a validator already shared stays where it is.
 *
 * A tool's function loads the shared modules it uses with `import()` when it
 * runs, on the tool's first call: loading a group module (which starts a
 * server's first call of any of its tools) loads none of them, and a first
 * call reads only the modules of its own validators, each a fraction of a
 * group's size (SHARED_BYTES). Below GROUP_FROM_TOOLS tools each tool's code
 * is a module of its own, read on its own, and nothing is shared.
 */
import { createHash } from "node:crypto";
import type { EmittedFile } from "../../ir.js";
import { code, FileBuilder } from "../../printer/file-builder.js";
import { headerComment } from "../../printer/header.js";
import { jsDoc } from "../../printer/literal.js";
import { CHUNKS_FOLDER } from "./groups.js";
import { bodiesCode, standaloneStatements, TS_PRELUDE, validateFunctionType, type StandaloneBody } from "../validators.js";
import { groupOf } from "./groups.js";
import type { ToolCodePart } from "./part.js";

/**
 * The shared code a shared module holds on average, in characters. A tool's
 * first call reads its group module and the shared modules of its two
 * validators; linear hashing leaves a module up to about twice the average,
 * so a first call reads at most about 400 KB of shared code, about one
 * group's worth (GROUP_BYTES), however many tools share them.
 */
export const SHARED_BYTES = 100_000;

/** Where a shared validator is written: its module (`chunks/shared-<n>`) and the function that makes it. */
export interface SharedPlace {
  readonly module: string;
  readonly exportName: string;
}

/** A validator's text's hash, hex: its export's name and its module come from it. */
const textHash = (text: string): string => createHash("sha256").update(text).digest("hex");

/** The export of a shared validator: what it validates (`validateInput`) and the first 12 hex digits of its text's hash, or all 64 where two texts' first 12 are the same. */
function exportNames(hashes: ReadonlyMap<string, { readonly exportName: string; readonly hash: string }>): Map<string, string> {
  const short = (v: { readonly exportName: string; readonly hash: string }): string => `${v.exportName}_${v.hash.slice(0, 12)}`;
  const counts = new Map<string, number>();
  for (const v of hashes.values()) counts.set(short(v), (counts.get(short(v)) ?? 0) + 1);
  return new Map([...hashes].map(([text, v]) => [text, counts.get(short(v))! > 1 ? `${v.exportName}_${v.hash}` : short(v)]));
}

/** The shared validators of the run's grouped parts, by their text: each validator that more than one tool's code holds. */
export function sharedPlaces(parts: readonly ToolCodePart[]): ReadonlyMap<string, SharedPlace> {
  const uses = new Map<string, { count: number; exportName: string }>();
  for (const part of parts)
    for (const body of part.validators.bodies) {
      const known = uses.get(body.code);
      if (known === undefined) uses.set(body.code, { count: 1, exportName: body.exportName });
      else known.count++;
    }
  const shared = new Map<string, { exportName: string; hash: string }>();
  let bytes = 0;
  for (const [text, { count, exportName }] of uses)
    if (count > 1) {
      shared.set(text, { exportName, hash: textHash(text) });
      bytes += text.length;
    }
  const modules = Math.min(shared.size, Math.max(1, Math.ceil(bytes / SHARED_BYTES)));
  const names = exportNames(shared);
  return new Map(
    [...shared].map(([text, { hash }]) => [
      text,
      { module: `${CHUNKS_FOLDER}/shared-${groupOf(Number.parseInt(hash.slice(0, 8), 16), modules)}`, exportName: names.get(text)! },
    ]),
  );
}

/** The statement that gives a tool's function a shared validator, under the name its own code would have had: `const validateInput = (await import("./shared-2.js")).validateInput_…();`. */
export function sharedStatement(body: StandaloneBody, place: SharedPlace): string {
  return `const ${body.exportName} = (await import(${JSON.stringify(`./${place.module.slice(place.module.lastIndexOf("/") + 1)}.js`)})).${place.exportName}();`;
}

/** The shared modules: each validator in its exported function, which makes it afresh for each tool that calls it, in the order of their names. */
export function sharedModules(parts: readonly ToolCodePart[], places: ReadonlyMap<string, SharedPlace>): EmittedFile[] {
  const bodies = new Map<string, StandaloneBody>();
  for (const part of parts) for (const body of part.validators.bodies) if (places.has(body.code)) bodies.set(body.code, body);
  const byModule = new Map<string, { body: StandaloneBody; exportName: string }[]>();
  for (const [text, body] of bodies) {
    const place = places.get(text)!;
    byModule.set(place.module, [...(byModule.get(place.module) ?? []), { body, exportName: place.exportName }]);
  }
  return [...byModule].map(([module, members]) => {
    members.sort((a, b) => (a.exportName < b.exportName ? -1 : 1));
    // The header names no tool: which tools share a validator changes nothing of its module.
    const file = new FileBuilder(`${module}.ts`, `${headerComment("the validators several tools share")}\n${TS_PRELUDE}`, { wrap: false });
    file.reserve(...members.map((m) => m.exportName));
    const type = file.use(validateFunctionType("chunks"));
    for (const { body, exportName } of members) {
      const [statement] = standaloneStatements(file, bodiesCode([body]), "chunks", undefined, false);
      const doc = jsDoc([`A ${body.exportName} the code of several tools holds: made afresh for each on its first call.`])!;
      file.add(code`${doc}
export function ${exportName}(): ${type} {
${statement}
  return ${body.exportName};
}`);
    }
    return { path: file.path, text: file.toText() };
  });
}
