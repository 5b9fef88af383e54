/**
 * Components shared by contracts, written once. SchemaConverter gives every
 * contract its own `$defs` copy of each component it reaches, so a large API
 * (GitHub's: 1,223 operations) would carry the same schema hundreds of times,
 * and `toolc generate` would compile each copy again. Here, at write time,
 * every `$defs` entry that two or more contract roots carry exactly as the
 * converter wrote it moves into a types file beside the contracts (the types
 * in name order, a new file each ~60 KB), and the contracts refer to it
 * (`types/<id>.yaml#/Name`). `toolc generate` bundles a
 * named type back into each served schema's `$defs`, so what a client is
 * served is self-contained as before; only the `$defs` names change (types
 * are PascalCase).
 *
 * What moves is decided from the contracts alone:
 * - an entry is a candidate in a root when it is the commonest content of its
 *   name in its direction (input or output: `readOnly` and `writeOnly`
 *   properties make the two differ) and every entry it refers to in that
 *   root is a candidate too (an entry a group rewrote stays local, and so
 *   does what refers to it);
 * - a candidate used by one root alone stays local: it is written once anyway;
 * - one name's input and output entries are one type when they are equal and
 *   so is everything they reach; otherwise the input's type is `<Name>Input`.
 */
import type { JsonObject, JsonValue } from "../../ir.js";
import { isJsonObject } from "../../schema/json.js";
import { defsEntryName } from "../../schema/refs.js";
import type { OpenApiTool } from "./contract.js";

type Direction = "input" | "output";
const DIRECTIONS: readonly Direction[] = ["input", "output"];

/** One `$defs` entry of one contract root. */
interface Entry {
  readonly name: string;
  readonly text: string;
  readonly refs: ReadonlySet<string>;
}

export interface TypesFile {
  /** The file's name in the types folder. */
  readonly name: string;
  /** Its `types:` map, by type name. */
  readonly types: JsonObject;
}

export interface SharedTypes {
  /** The tools, each contract's shared entries replaced by references into the types files. */
  readonly tools: readonly OpenApiTool[];
  /** None when nothing is shared. */
  readonly files: readonly TypesFile[];
}

/** Every `#/$defs/<name>` a schema refers to, at any depth. */
function localRefs(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) localRefs(item, into);
  else if (isJsonObject(schema))
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$ref" && typeof value === "string") {
        const name = defsEntryName(value);
        if (name !== undefined) into.add(name);
      } else localRefs(value, into);
    }
  return into;
}

/** A copy of `schema` with each `#/$defs/<name>` ref that `target` maps rewritten to what it returns. */
function rewriteRefs(schema: JsonValue, target: (name: string) => string | undefined): JsonValue {
  if (Array.isArray(schema)) return schema.map((item) => rewriteRefs(item, target));
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    const name = key === "$ref" && typeof value === "string" ? defsEntryName(value) : undefined;
    const to = name === undefined ? undefined : target(name);
    out[key] = to ?? rewriteRefs(value, target);
  }
  return out;
}

/** `simple-user` → `SimpleUser`: a types file's names are `^[A-Z][A-Za-z0-9]*$`. */
function typeNameOf(name: string): string {
  const joined = name
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");
  return /^[A-Z]/.test(joined) ? joined : `T${joined}`;
}

function entriesOf(root: JsonValue | undefined): Entry[] {
  if (!isJsonObject(root) || !isJsonObject(root.$defs)) return [];
  return Object.entries(root.$defs).map(([name, schema]) => ({ name, text: JSON.stringify(schema), refs: localRefs(schema) }));
}

/** The entries of one root that stay candidates: each canonical, and everything it refers to in the root too. */
function candidates(entries: readonly Entry[], canonical: ReadonlyMap<string, string>): Set<string> {
  const names = new Set(entries.filter((e) => canonical.get(e.name) === e.text).map((e) => e.name));
  for (let changed = true; changed;) {
    changed = false;
    for (const e of entries)
      if (names.has(e.name) && [...e.refs].some((r) => !names.has(r))) {
        names.delete(e.name);
        changed = true;
      }
  }
  return names;
}

function commonest(texts: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
  let best = texts[0]!;
  for (const [t, n] of counts) if (n > counts.get(best)! || (n === counts.get(best)! && t < best)) best = t;
  return best;
}

export interface ShareOptions {
  /** The folder of the types files, relative to the contracts (`types`). */
  readonly folder: string;
  /** The first types file is `<stem>.yaml`, the next ones `<stem>-2.yaml` and on. */
  readonly stem: string;
  /** The most characters of schema (as JSON) one types file holds, unless one type alone is more. */
  readonly maxChars: number;
}

/** Contracts refer to a shared type as `<folder>/<file>#/<Name>` (`types/github.yaml#/SimpleUser`). */
export function shareComponents(tools: readonly OpenApiTool[], options: ShareOptions): SharedTypes {
  const roots = tools.map((t) => ({ input: entriesOf(t.contract.input), output: entriesOf(t.contract.output) }));
  const canonical = new Map<Direction, Map<string, string>>();
  for (const d of DIRECTIONS) {
    const texts = new Map<string, string[]>();
    for (const r of roots) for (const e of r[d]) texts.set(e.name, [...(texts.get(e.name) ?? []), e.text]);
    canonical.set(d, new Map([...texts].map(([name, list]) => [name, commonest(list)])));
  }
  // Candidates per root, then the names two or more roots share; a shared entry's refs are shared too (each root that has it has them).
  const picked = roots.map((r) => ({ input: candidates(r.input, canonical.get("input")!), output: candidates(r.output, canonical.get("output")!) }));
  const uses = new Map<string, number>();
  for (const p of picked) for (const d of DIRECTIONS) for (const name of p[d]) uses.set(`${d}/${name}`, (uses.get(`${d}/${name}`) ?? 0) + 1);
  const shared = (d: Direction, name: string): boolean => (uses.get(`${d}/${name}`) ?? 0) >= 2;

  const refsOf = (d: Direction, name: string): ReadonlySet<string> => localRefs(JSON.parse(canonical.get(d)!.get(name)!));
  // One type for both directions where the two are equal, and so is everything they reach.
  const merged = new Set<string>();
  for (const name of canonical.get("output")!.keys())
    if (shared("output", name) && shared("input", name) && canonical.get("input")!.get(name) === canonical.get("output")!.get(name)) merged.add(name);
  for (let changed = true; changed;) {
    changed = false;
    for (const name of merged)
      if ([...refsOf("output", name)].some((r) => !merged.has(r))) {
        merged.delete(name);
        changed = true;
      }
  }

  // Type names, in a fixed order: outputs and merged ones first, so a name keeps its plain form where it can.
  const keys = [...uses.keys()]
    .filter((k) => uses.get(k)! >= 2)
    .map((k) => ({ d: k.slice(0, k.indexOf("/")) as Direction, name: k.slice(k.indexOf("/") + 1) }))
    .filter((k) => !(k.d === "input" && merged.has(k.name)))
    .sort((a, b) => (a.d === b.d ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.d === "output" ? -1 : 1));
  const typeNames = new Map<string, string>();
  const taken = new Set<string>();
  for (const { d, name } of keys) {
    const base = typeNameOf(name) + (d === "input" && shared("output", name) ? "Input" : "");
    let typeName = base;
    for (let i = 2; taken.has(typeName.toLowerCase()); i++) typeName = `${base}${i}`;
    taken.add(typeName.toLowerCase());
    typeNames.set(`${d}/${name}`, typeName);
  }
  const typeName = (d: Direction, name: string): string | undefined => typeNames.get(`${merged.has(name) ? "output" : d}/${name}`);

  // Files of at most maxChars of schema each, the types in name order: one large types file would compile into one large module.
  const fileOf = new Map<string, number>();
  const sizes: number[] = [0];
  for (const { d, name } of [...keys].sort((a, b) => cmp(typeNames.get(`${a.d}/${a.name}`)!, typeNames.get(`${b.d}/${b.name}`)!))) {
    const size = canonical.get(d)!.get(name)!.length;
    if (sizes[sizes.length - 1]! > 0 && sizes[sizes.length - 1]! + size > options.maxChars) sizes.push(0);
    sizes[sizes.length - 1]! += size;
    fileOf.set(typeNames.get(`${d}/${name}`)!, sizes.length - 1);
  }
  const fileName = (index: number): string => (index === 0 ? `${options.stem}.yaml` : `${options.stem}-${index + 1}.yaml`);
  const files: TypesFile[] = sizes.map((_, i) => ({ name: fileName(i), types: {} }));
  for (const { d, name } of keys) {
    const own = typeNames.get(`${d}/${name}`)!;
    const here = fileOf.get(own)!;
    files[here]!.types[own] = rewriteRefs(JSON.parse(canonical.get(d)!.get(name)!) as JsonValue, (r) => {
      const to = typeName(d, r)!;
      return fileOf.get(to) === here ? `#/types/${to}` : `${fileName(fileOf.get(to)!)}#/${to}`;
    });
  }
  const ref = (to: string): string => `${options.folder}/${fileName(fileOf.get(to)!)}#/${to}`;

  const rewritten = tools.map((tool, i) => {
    const contract = { ...tool.contract };
    for (const d of DIRECTIONS) {
      const root = contract[d];
      const moved = new Set([...picked[i]![d]].filter((name) => shared(d, name)));
      if (!isJsonObject(root) || moved.size === 0) continue;
      const target = (name: string): string | undefined => (moved.has(name) ? ref(typeName(d, name)!) : undefined);
      const { $defs, ...rest } = root;
      const local = Object.entries($defs as JsonObject).filter(([name]) => !moved.has(name));
      const out = rewriteRefs(rest, target) as JsonObject;
      if (local.length > 0) out.$defs = Object.fromEntries(local.map(([name, schema]) => [name, rewriteRefs(schema, target)]));
      contract[d] = out;
    }
    return { ...tool, contract };
  });
  const sorted = (types: JsonObject): JsonObject =>
    Object.fromEntries(
      Object.keys(types)
        .sort(cmp)
        .map((k) => [k, types[k]!]),
    );
  return { tools: rewritten, files: keys.length === 0 ? [] : files.map((f) => ({ name: f.name, types: sorted(f.types) })) };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
