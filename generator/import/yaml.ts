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
      const block = value.includes("\n") ? Scalar.BLOCK_LITERAL : value.length > FOLD_AT ? Scalar.BLOCK_FOLDED : undefined;
      if (block !== undefined) pair.value.type = readsBack(value, block) ? block : Scalar.QUOTE_DOUBLE;
    },
  });
}

/** Whether `value` written as a block scalar of this type, as contractYaml writes it, parses back as `value`. */
function readsBack(value: string, type: Scalar.Type): boolean {
  const doc = new Document({ description: value });
  const scalar = (doc.contents as { items: { value: Scalar }[] }).items[0]!.value;
  scalar.type = type;
  return parse(doc.toString(WRITE_OPTIONS)).description === value;
}

const WRITE_OPTIONS = { lineWidth: 100, minContentWidth: 40 } as const;

/** A contract whose YAML does not read back as the contract: the import reports it for that tool and writes the others. */
export class YamlMismatchError extends Error {
  constructor(readonly tool: string) {
    super(`the contract's YAML does not read back as the contract (a string the YAML writer changes); the tool is not written`);
    this.name = "YamlMismatchError";
  }
}

export function contractYaml(tool: ImportedTool, outDir: string): string {
  // A value used twice (a shared schema) is written twice, not as a YAML anchor and alias.
  const doc = new Document(tool.contract, { aliasDuplicateObjects: false });
  layout(doc);
  if (!isMap(doc.contents)) throw new Error("a contract is a mapping");
  const body = doc.toString(WRITE_OPTIONS);
  // The contract is data; a YAML emitter corner case must not change it silently.
  if (!isDeepStrictEqual(parse(body), tool.contract)) throw new YamlMismatchError(tool.name);
  const notes = tool.notes.map((n) => `# toolc import: ${n}`);
  return [schemaComment(outDir), ...notes, body].join("\n");
}
