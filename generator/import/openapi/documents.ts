/**
 * Reads an API description and every document its `$ref`s reach, before the
 * parser bundles them: the parser is then given these documents and nothing
 * else (document-source.ts), so what the import reads is decided here.
 *
 * - A description read from a URL reads only http(s) URLs, each checked
 *   against the address it connects to, redirects included (guarded-fetch.ts);
 *   never a `file:` URL or a path on this machine.
 * - A local description reads files inside its own folder (symbolic links
 *   resolved), and http(s) URLs checked the same way; a file outside the
 *   folder only with `allowRefOutside`.
 * - YAML is parsed here, with the `yaml` package's alias limit, and every
 *   document's expanded size is measured: an alias bomb is refused, not
 *   expanded.
 *
 * Each refusal is an error at the `$ref` that asked for it (its document and
 * pointer), or at the description itself.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseDocument } from "yaml";
import { isJsonObject } from "../../schema/json.js";
import { pointerJoin, type Problem } from "../problems.js";
import { namesLoopback } from "./addresses.js";
import { FetchRefused, guardedGet, type FetchPolicy } from "./guarded-fetch.js";

/** The largest document read, in bytes (GitHub's description is 13 MB). */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;
/** YAML aliases one document may use (the `yaml` package's own default). */
export const MAX_ALIASES = 100;
/** How much larger than its text a document may be once its aliases are expanded: JSON of YAML text is rarely more than twice its size. */
export const EXPANSION_FACTOR = 4;
/** Every document may expand to this much whatever its size, so a short one with an alias or two still reads. */
const EXPANSION_ALLOWANCE = 1024 * 1024;
/** Documents one description may reach through its `$ref`s. */
const MAX_DOCUMENTS = 1000;

export interface ReadOptions {
  /** The description: an absolute path or an http(s) URL. */
  readonly location: string;
  /** How the description is named in problems. */
  readonly display: string;
  /** The working directory, for naming other local documents. */
  readonly cwd: string;
  /** A local description may reference files outside its folder. */
  readonly allowRefOutside?: boolean;
}

export interface ReadDocuments {
  /** Each document by its key (an http(s) or file: URL without fragment). */
  readonly documents: ReadonlyMap<string, unknown>;
  /** The description's key. */
  readonly root: string | undefined;
  readonly problems: readonly Problem[];
}

function isUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** A document's key: its URL without the fragment. */
export function documentKey(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}

/** Rough size of a value written as JSON, counted through shared (aliased) values each time; stops counting past `limit`. */
export function expandedSize(value: unknown, limit: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const v = stack.pop();
    if (typeof v === "string") size += v.length + 2;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) {
        size += k.length + 4;
        stack.push(item);
      }
      size += 2;
    } else size += String(v).length;
  }
  return size;
}

/** Parses a document's text: JSON when it looks like JSON, else YAML with bounded aliases. Throws with a located message. */
export function parseText(text: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return JSON.parse(text);
    } catch {
      // Not JSON after all: YAML's flow style starts the same way, and YAML's error says where.
    }
  }
  const doc = parseDocument(text, { prettyErrors: true });
  const first = doc.errors[0];
  if (first) throw new Error(`not valid YAML: ${first.message.split("\n")[0]}`);
  const value: unknown = doc.toJS({ maxAliasCount: MAX_ALIASES });
  const limit = text.length * EXPANSION_FACTOR + EXPANSION_ALLOWANCE;
  if (expandedSize(value, limit) > limit)
    throw new Error(`its YAML aliases expand ${text.length} bytes to more than ${limit} (an alias bomb?); write the values out, or import a JSON copy`);
  return value;
}

/** Every `$ref` to another document (not a local `#…` pointer) with the pointer of the object holding it; pointers are spelled out only for those, a large description has tens of thousands of local ones. */
function refsIn(value: unknown): { ref: string; pointer: string }[] {
  interface At {
    readonly value: unknown;
    readonly up: At | undefined;
    readonly key: string | number;
  }
  const pointerOf = (at: At): string => (at.up === undefined ? "" : pointerJoin(pointerOf(at.up), at.key));
  const found: { ref: string; pointer: string }[] = [];
  const stack: At[] = [{ value, up: undefined, key: "" }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    const v = at.value;
    if (Array.isArray(v)) v.forEach((item, i) => stack.push({ value: item, up: at, key: i }));
    else if (isJsonObject(v)) {
      if (typeof v.$ref === "string" && !v.$ref.startsWith("#")) found.push({ ref: v.$ref, pointer: pointerJoin(pointerOf(at), "$ref") });
      for (const [k, item] of Object.entries(v)) if (k !== "$ref") stack.push({ value: item, up: at, key: k });
    }
  }
  return found.reverse();
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

class Reader {
  readonly documents = new Map<string, unknown>();
  readonly problems: Problem[] = [];
  readonly #fromUrl: boolean;
  readonly #policy: FetchPolicy;
  /** A local description's folder, symbolic links resolved. */
  readonly #folder: string | undefined;
  readonly #display: Map<string, string>;

  constructor(readonly options: ReadOptions) {
    this.#fromUrl = isUrl(options.location);
    this.#policy = { allowLoopback: this.#fromUrl && namesLoopback(new URL(options.location)), maxBytes: MAX_DOCUMENT_BYTES };
    this.#folder = this.#fromUrl ? undefined : realFolder(options.location);
    this.#display = new Map([[this.rootKey(), options.display]]);
  }

  rootKey(): string {
    return this.#fromUrl ? documentKey(new URL(this.options.location)) : pathToFileURL(this.options.location).href;
  }

  displayOf(key: string): string {
    const known = this.#display.get(key);
    if (known !== undefined) return known;
    if (!key.startsWith("file:")) return key;
    const rel = relative(this.options.cwd, fileURLToPath(key));
    return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? fileURLToPath(key) : rel.split(sep).join("/");
  }

  /** Why `target` may not be read, or undefined. */
  refused(target: URL): string | undefined {
    if (target.protocol === "http:" || target.protocol === "https:") return undefined; // checked per connection by guardedGet
    if (target.protocol !== "file:") return `${target.protocol} references are not read (only http(s) URLs${this.#fromUrl ? "" : " and files"})`;
    if (this.#fromUrl) return "a description read from a URL never reads files on this machine";
    if (this.options.allowRefOutside) return undefined;
    const path = realPath(fileURLToPath(target));
    if (this.#folder !== undefined && !inside(this.#folder, path))
      return `${fileURLToPath(target)} is outside the description's folder (${this.#folder}); pass --allow-ref-outside to read it`;
    return undefined;
  }

  async read(key: string): Promise<unknown> {
    if (key.startsWith("file:")) {
      const path = fileURLToPath(key);
      if (statSync(path).size > MAX_DOCUMENT_BYTES) throw new Error(`larger than ${MAX_DOCUMENT_BYTES} bytes`);
      return parseText(readFileSync(path, "utf8"));
    }
    const fetched = await guardedGet(key, this.#policy);
    return parseText(fetched.body.toString("utf8"));
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function realFolder(path: string): string {
  return dirname(realPath(path));
}

function problem(file: string, pointer: string, message: string): Problem {
  return { severity: "error", file, pointer, message };
}

/** Reads the description and every document its `$ref`s reach; any problem means the import stops. */
export async function readDocuments(options: ReadOptions): Promise<ReadDocuments> {
  const reader = new Reader(options);
  const root = reader.rootKey();
  try {
    reader.documents.set(root, await reader.read(root));
  } catch (e) {
    const why = e instanceof FetchRefused ? e.message : e instanceof Error ? e.message : String(e);
    return { documents: reader.documents, root: undefined, problems: [problem(options.display, "", `cannot read the API description: ${why}`)] };
  }
  const queue = [root];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const { ref, pointer } of refsIn(reader.documents.get(from))) {
      const at = (message: string) => reader.problems.push(problem(reader.displayOf(from), pointer, `$ref ${JSON.stringify(ref)}: ${message}`));
      let target: URL;
      try {
        target = new URL(ref, from);
      } catch {
        at("not a URL or a relative reference");
        continue;
      }
      const key = documentKey(target);
      if (reader.documents.has(key)) continue;
      const why = reader.refused(target);
      if (why !== undefined) {
        at(`refused: ${why}`);
        continue;
      }
      if (reader.documents.size >= MAX_DOCUMENTS) {
        at(`more than ${MAX_DOCUMENTS} documents referenced`);
        return { documents: reader.documents, root, problems: reader.problems };
      }
      try {
        reader.documents.set(key, await reader.read(key));
        queue.push(key);
      } catch (e) {
        at(`cannot read ${reader.displayOf(key)}: ${e instanceof Error ? e.message : String(e)}`);
        reader.documents.set(key, undefined);
      }
    }
  }
  return { documents: reader.documents, root, problems: reader.problems };
}
