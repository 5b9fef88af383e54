/**
 * Writes an imported contract as YAML. Long and multi-line descriptions
 * become block scalars so they read like the prose they are, unless a block
 * scalar would read back as another string (a leading space turns a folded
 * line into a more-indented one that is not folded back; trailing spaces,
 * tabs): those are double-quoted, which holds any string. Key order is the
 * contract's, so the same source always gives the same bytes.
 */
import { relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Document, isMap, isScalar, visit, parse } from "yaml";
import { isDeepStrictEqual } from "node:util";
import { META_SCHEMA_URL } from "../load/meta-schema.js";
import type { ImportedTool } from "./tool.js";
import { commentVouched, descriptionStyle, emitYaml, FLOW_LIST_MAX, WRITE_OPTIONS } from "./yaml-emit.js";

/** The editor hint line, pointing from the output folder at the meta-schema shipped with this toolc. */
export function schemaComment(outDir: string): string {
  const path = relative(outDir, fileURLToPath(META_SCHEMA_URL)).split(sep).join("/");
  return `# yaml-language-server: $schema=${path}`;
}

/**
 * The library's writer, kept for what the fast one (yaml-emit.ts) leaves to
 * it: seqs short enough on one line; long and multi-line descriptions as
 * block scalars, or double-quoted when `blocks` is false or a long one-line
 * string has whitespace a folded scalar does not keep.
 */
function layout(doc: Document, blocks: boolean): void {
  visit(doc, {
    Seq(_key, seq) {
      const scalars = seq.items.every((item) => isScalar(item) && !(typeof item.value === "string" && item.value.includes("\n")));
      if (scalars && JSON.stringify(seq.toJSON()).length <= FLOW_LIST_MAX) seq.flow = true;
    },
    Pair(_key, pair) {
      if (!isScalar(pair.key) || pair.key.value !== "description" || !isScalar(pair.value)) return;
      const value = pair.value.value;
      if (typeof value !== "string") return;
      const style = descriptionStyle(value, blocks);
      if (style !== undefined) pair.value.type = style;
    },
  });
}

/**
 * Every character some reader takes for the end of a line: YAML 1.2's LF and
 * CR, YAML 1.1's NEL, LS and PS (which older parsers and editors still break
 * at), and VT and FF. Text from a source reaches a comment only without them,
 * so it cannot end the comment and start a key.
 */
// eslint-disable-next-line no-control-regex -- matching line-break control characters is the point
const LINE_BREAKS = /[\n\r\u000b\u000c\u0085\u2028\u2029]/g;

/** A comment line's text: each line break written as its escape (`\u2028`), visible and inert. */
export function commentSafe(text: string): string {
  return text.replace(LINE_BREAKS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A contract whose YAML does not read back as the contract: the import reports it for that tool and writes the others. */
export class YamlMismatchError extends Error {
  constructor(
    readonly tool: string,
    readonly at: string,
  ) {
    super(`the contract's YAML does not read back as the contract at ${at || "its root"} (a value the YAML writer changes); the tool is not written`);
    this.name = "YamlMismatchError";
  }
}

/** The contract path (`/input/properties/x/description`) of the first value that read back differently. */
function firstDifference(written: unknown, read: unknown, at = ""): string | undefined {
  if (isDeepStrictEqual(written, read)) return undefined;
  if (written === null || read === null || typeof written !== "object" || typeof read !== "object") return at;
  for (const key of new Set([...Object.keys(written), ...Object.keys(read)])) {
    const found = firstDifference((written as Record<string, unknown>)[key], (read as Record<string, unknown>)[key], `${at}/${key}`);
    if (found !== undefined) return found;
  }
  return at;
}

/** The contract's YAML as the `yaml` library's Document writer prints it with the layout above. */
export function libraryYaml(contract: ImportedTool["contract"], blocks: boolean): string {
  // A value used twice (a shared schema) is written twice, not as a YAML anchor and alias.
  const doc = new Document(contract, { aliasDuplicateObjects: false });
  layout(doc, blocks);
  if (!isMap(doc.contents)) throw new Error("a contract is a mapping");
  return doc.toString(WRITE_OPTIONS);
}

/** The fast writer's text and whether it vouches for its reading; the library's text, not vouched for, when the contract is outside what the fast writer prints. */
function written(contract: ImportedTool["contract"], blocks: boolean): { text: string; vouched: boolean } {
  return emitYaml(contract, blocks) ?? { text: libraryYaml(contract, blocks), vouched: false };
}

/**
 * The file read back as `toolc generate` reads it, but without the check
 * for repeated keys, which costs a scan of each mapping per key (a third of
 * the reading on GitHub's contracts): a key written twice reads back as
 * fewer keys than the contract has, which the comparison finds anyway.
 */
function readBack(text: string): unknown {
  return parse(text, { uniqueKeys: false });
}

export interface ContractFile {
  readonly text: string;
  /** Whether the text was parsed back to check it (the writer did not vouch for every scalar or comment). */
  readonly parsed: boolean;
}

/**
 * The file as written, comments included, must read back as exactly the
 * contract: a YAML emitter corner case or a comment that is not one must not
 * change it silently. When the writer vouches for every scalar and comment
 * line (yaml-emit.ts: each in a form whose reading is plain to see; the
 * collections are laid out by rule, test/import/yaml-emit.test.ts), it
 * does; otherwise one parse of the whole file checks both, and only when it
 * differs is the contract written again without block scalars, and if that
 * differs too, an error.
 */
export function contractFile(tool: ImportedTool, outDir: string): ContractFile {
  const comments = [commentSafe(schemaComment(outDir)), ...tool.notes.map((n) => `# toolc import: ${commentSafe(n)}`)];
  const file = (body: string): string => [...comments, body].join("\n");
  const blocks = written(tool.contract, true);
  const text = file(blocks.text);
  if (blocks.vouched && comments.every(commentVouched)) return { text, parsed: false };
  if (isDeepStrictEqual(readBack(text), tool.contract)) return { text, parsed: true };
  const plain = file(written(tool.contract, false).text);
  const read: unknown = readBack(plain);
  if (!isDeepStrictEqual(read, tool.contract)) throw new YamlMismatchError(tool.name, firstDifference(tool.contract, read) ?? "");
  return { text: plain, parsed: true };
}

export function contractYaml(tool: ImportedTool, outDir: string): string {
  return contractFile(tool, outDir).text;
}
