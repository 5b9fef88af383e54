/**
 * Part (1) of type soundness: every valid instance of JSON-Schema-Test-Suite
 * (draft 2020-12, the supported-subset keyword files) whose schema toolc
 * compiles in its normal, strict mode, written as `const c_N: T_N = <value>`.
 *
 * Two views per instance, as toolc emits them: the type "as sent"
 * (`resolved: false`) against the instance, and the "after defaults" type
 * (`resolved: true`) against the instance after Ajv's useDefaults ran on it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAjv } from "../../generator/ajv.js";
import { schemaToType, type TypeContext } from "../../generator/emit/types.js";
import { typeText } from "../../generator/printer/types/render.js";
import type { JsonObject, JsonSchema } from "../../generator/ir.js";
import { FORMAT_FILES, KEYWORD_FILES, outsideSubset, SUITE_DIR } from "../conformance/suite-runner.js";
import { CheckFile, literal } from "./tsc.js";

interface Group {
  description: string;
  schema: JsonSchema;
  tests: { description: string; data: unknown; valid: boolean }[];
}

export interface SuiteFigures {
  /** Valid instances in the keyword files. */
  validInstances: number;
  /** Of those, in groups toolc compiles and whose type emits, and the validator accepts. */
  checked: number;
  skipped: Map<string, number>;
}

/**
 * "normal" is toolc's own configuration. "relaxed" turns off only Ajv's
 * strictTypes/strictTuples authoring checks, as the conformance run does for
 * the suite's typeless schemas: a wider net, reported separately because toolc
 * itself would refuse those schemas.
 */
export type Mode = "normal" | "relaxed";
let mode: Mode = "normal";
const strictAjv = (applyDefaults: boolean) => createAjv({ applyDefaults, strictTypes: mode === "normal" });

/** Why a group cannot be checked, or undefined. Uses toolc's own Ajv configuration. */
function reasonToSkip(schema: JsonSchema): string | undefined {
  const outside = outsideSubset(schema as never);
  if (outside) return "outside toolc's subset";
  try {
    strictAjv(false).compile(schema as object);
    return undefined;
  } catch {
    return mode === "normal" ? "rejected by toolc's strict Ajv (mostly strictTypes: no `type`)" : "rejected by Ajv";
  }
}

/** Type aliases for the root `$defs`, and a context resolving `#/$defs/<key>` to them. */
function typesFor(schema: JsonSchema, id: string, resolved: boolean): { aliases: string[]; root: string } {
  const defs = typeof schema === "object" && typeof schema.$defs === "object" && schema.$defs !== null ? (schema.$defs as JsonObject) : {};
  const names = new Map(Object.keys(defs).map((k, i) => [k, `${id}_d${i}${resolved ? "r" : ""}`]));
  const ctx: TypeContext = {
    resolved,
    resolveRef: (key) => {
      const name = names.get(key);
      if (name === undefined) throw new Error(`no $defs entry ${key}`);
      return name;
    },
  };
  // Local defs are emitted as sent in tool files too (see emit/types.ts), so only the root gets `resolved`.
  const defCtx: TypeContext = { ...ctx, resolved: false };
  const aliases = Object.entries(defs).map(([k, d]) => `type ${names.get(k)} = ${typeText(schemaToType(d as JsonSchema, defCtx))};`);
  const rest = typeof schema === "object" ? (({ $defs: _d, ...r }) => r)(schema) : schema;
  return { aliases, root: typeText(schemaToType(rest as JsonSchema, ctx)) };
}

/** Adds one group's checks to `file`; returns how many instance checks were added, or why none. */
function addGroup(file: CheckFile, group: Group, id: string): number | string {
  const why = reasonToSkip(group.schema);
  if (why) return why;
  let sent: ReturnType<typeof typesFor>;
  let after: ReturnType<typeof typesFor>;
  try {
    sent = typesFor(group.schema, id, false);
    after = typesFor(group.schema, id, true);
  } catch (e) {
    return `type emitter refuses: ${(e as Error).message.split(":")[0]}`;
  }
  const check = strictAjv(false).compile(group.schema as object);
  const withDefaults = strictAjv(true).compile(group.schema as object);
  let n = 0;
  group.tests.forEach((t, i) => {
    // The property is about what the validator accepts, so its verdict, not the suite's, decides.
    if (!t.valid || !check(structuredClone(t.data))) return;
    const owner = `${id}#${i} ${group.description} / ${t.description}`;
    if (n === 0) {
      file.add([...sent.aliases, `type ${id} = ${sent.root};`].join("\n"), `${id} (type)`);
      file.add([...after.aliases, `type ${id}r = ${after.root};`].join("\n"), `${id} (resolved type)`);
    }
    const resolved = structuredClone(t.data);
    withDefaults(resolved);
    file.add(`const ${id}_${i}: ${id} = ${literal(t.data)};`, owner);
    file.add(`const ${id}_${i}r: ${id}r = ${literal(resolved)};`, `${owner} (after defaults)`);
    n++;
  });
  return n;
}

/** Builds the suite check file. */
export function suiteChecks(which: Mode = "normal"): { file: CheckFile; figures: SuiteFigures } {
  mode = which;
  const file = new CheckFile();
  const figures: SuiteFigures = { validInstances: 0, checked: 0, skipped: new Map() };
  const skip = (why: string, n: number) => figures.skipped.set(why, (figures.skipped.get(why) ?? 0) + n);
  [...KEYWORD_FILES, ...FORMAT_FILES].forEach((name, f) => {
    const groups = JSON.parse(readFileSync(join(SUITE_DIR, name), "utf8")) as Group[];
    groups.forEach((group, g) => {
      const valid = group.tests.filter((t) => t.valid).length;
      figures.validInstances += valid;
      const added = addGroup(file, group, `T${f}_${g}`);
      if (typeof added === "string") skip(added, valid);
      else {
        figures.checked += added;
        if (valid > added) skip("valid per the suite, rejected by Ajv (a known conformance failure)", valid - added);
      }
    });
  });
  return { file, figures };
}
