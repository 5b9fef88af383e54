/**
 * Writes an imported contract as YAML. Long and multi-line descriptions
 * become block scalars so they read like the prose they are; key order is
 * the contract's, so the same source always gives the same bytes.
 */
import { relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Document, isMap, isScalar, Scalar, visit, parse } from "yaml";
import { isDeepStrictEqual } from "node:util";
import { META_SCHEMA_URL } from "../load/meta-schema.js";
import type { ImportedTool } from "./tool.js";

/** Longer single-line descriptions are folded; shorter ones stay on their key's line. */
const FOLD_AT = 80;

/** The editor hint line, pointing from the output folder at the meta-schema shipped with this toolc. */
export function schemaComment(outDir: string): string {
  const path = relative(outDir, fileURLToPath(META_SCHEMA_URL)).split(sep).join("/");
  return `# yaml-language-server: $schema=${path}`;
}

/** A short list of scalars (an enum, `required`) reads best on one line. */
const FLOW_LIST_MAX = 60;

function layout(doc: Document): void {
  visit(doc, {
    Seq(_key, seq) {
      const scalars = seq.items.every((item) => isScalar(item) && !(typeof item.value === "string" && item.value.includes("\n")));
      if (scalars && JSON.stringify(seq.toJSON()).length <= FLOW_LIST_MAX) seq.flow = true;
    },
    Pair(_key, pair) {
      if (!isScalar(pair.key) || pair.key.value !== "description" || !isScalar(pair.value)) return;
      const value = pair.value.value;
      if (typeof value !== "string") return;
      if (value.includes("\n")) pair.value.type = Scalar.BLOCK_LITERAL;
      else if (value.length > FOLD_AT) pair.value.type = Scalar.BLOCK_FOLDED;
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

export function contractYaml(tool: ImportedTool, outDir: string): string {
  // A value used twice (a shared schema) is written twice, not as a YAML anchor and alias.
  const doc = new Document(tool.contract, { aliasDuplicateObjects: false });
  layout(doc);
  if (!isMap(doc.contents)) throw new Error("a contract is a mapping");
  const body = doc.toString({ lineWidth: 100, minContentWidth: 40 });
  const notes = tool.notes.map((n) => `# toolc import: ${commentSafe(n)}`);
  const text = [commentSafe(schemaComment(outDir)), ...notes, body].join("\n");
  // The contract is data: the file as written, comments included, must read back as exactly the contract (a YAML emitter corner case, or a comment that is not one, must not change it silently).
  if (!isDeepStrictEqual(parse(text), tool.contract)) throw new Error(`the YAML written for ${tool.name} does not read back as its contract`);
  return text;
}
