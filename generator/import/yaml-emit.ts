/**
 * The contract writer's fast path: the bytes the `yaml` library's Document
 * writer prints for a contract with the import's layout (yaml.ts: short
 * scalar lists on one line, descriptions as block scalars), printed straight
 * from the contract's plain values instead of through a tree of nodes. Each
 * scalar is printed by the library's own scalar printers (`yaml/util`) in the
 * context the library's writer gives it (indentation, key or value, flow, the
 * column it starts at), and the collections are laid out as the library lays
 * them out, so the text is the library's to the byte
 * (test/import/yaml-emit.test.ts compares the two on arbitrary contracts).
 *
 * It also says whether the text is sure to read back as the contract without
 * parsing it: every scalar is in a form whose reading is plain to see (a plain,
 * quoted or block scalar of printable characters, folded only between words),
 * so only a contract with some other scalar is parsed back to check it.
 * Values outside plain JSON (undefined, holes, class instances) are left to
 * the library's writer, whose reading back finds what they lose.
 */
import { Document, Scalar } from "yaml";
import { stringifyNumber, stringifyString, type StringifyContext } from "yaml/util";

/** Longer single-line descriptions are folded; shorter ones stay on their key's line. */
export const FOLD_AT = 80;
/** A short list of scalars (an enum, `required`) reads best on one line. */
export const FLOW_LIST_MAX = 60;
/** The writer's options, as yaml.ts passes them to `Document.toString`. */
export const WRITE_OPTIONS = { lineWidth: 100, minContentWidth: 40 } as const;

const STEP = "  ";
/** A longer implicit key is written as an explicit one (`? key`), a layout this writer leaves to the library's. */
const MAX_IMPLICIT_KEY = 1024;

/** The defaults of the library's stringify context (createStringifyContext), the writer's options in place of its width defaults. */
const OPTIONS = {
  blockQuote: true,
  commentString: (s: string) => `#${s}`,
  defaultKeyType: null,
  defaultStringType: "PLAIN",
  directives: null,
  doubleQuotedAsJSON: false,
  doubleQuotedMinMultiLineLength: 40,
  falseStr: "false",
  flowCollectionPadding: true,
  indentSeq: true,
  nullStr: "null",
  simpleKeys: false,
  singleQuote: null,
  trailingComma: false,
  trueStr: "true",
  verifyAliasOrder: true,
  ...WRITE_OPTIONS,
} as unknown as StringifyContext["options"];

/** The schema whose tags decide when a plain string would read as another type (`"true"`, `"1.5"`): the core schema of any new Document. */
const DOC = new Document();
const NO_ANCHORS: Set<string> = new Set();

/** A value outside what this writer prints; the caller uses the library's writer. */
class Outside extends Error {}
const OUTSIDE = new Outside();

/**
 * Characters whose reading in any scalar form is the character itself:
 * printable ASCII and the printable non-ASCII range, without any character
 * JavaScript counts as white space (U+00A0, U+1680, U+2000–U+200A, U+2028,
 * U+2029, U+202F, U+205F, U+3000, U+FEFF), the C1 controls and surrogates.
 * Tabs and carriage returns are left out too: a reader may fold or drop them.
 */
const PRINTABLE =
  "\\x20-\\x7e\\u00a1-\\u167f\\u1681-\\u1fff\\u200b-\\u2027\\u202a-\\u202e\\u2030-\\u205e\\u2060-\\u2fff\\u3001-\\ud7ff\\ue000-\\ufefe\\uff00-\\ufffd";
const SAFE_TEXT = new RegExp(`^[\\n${PRINTABLE}]*$`);
const SAFE_LINE = new RegExp(`^[${PRINTABLE}]*$`);
/** A character that could start an indicator at the start of a plain scalar's continuation line. */
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;

/** Whether a comment line reads as a comment and nothing else: one line of printable characters. */
export function commentVouched(line: string): boolean {
  return SAFE_LINE.test(line);
}

/** `text` split at each line break followed by `indent`, when every piece is a word run folding joins back with one space. */
function foldedPieces(text: string, indent: string): string[] | undefined {
  const pieces = text.split(`\n${indent}`);
  for (const piece of pieces) if (piece === "" || piece.startsWith(" ") || piece.endsWith(" ") || piece.includes("\n")) return undefined;
  return pieces;
}

/**
 * Whether `out`, the printed form of `value` at `indent`, reads back as
 * exactly `value` by the YAML rules for its form alone: one line plain,
 * double-quoted as JSON or single-quoted; a literal block scalar with strip
 * chomping whose lines are the value's lines; or a folded block or plain
 * scalar whose line breaks each stand for one space between two words.
 * Anything else (a tab, a line break in a quoted scalar, a kept final line
 * break) is not vouched for, and the contract is parsed back.
 */
function readsBack(value: string, out: string, indent: string, inFlow: boolean): boolean {
  if (!SAFE_TEXT.test(value)) return false;
  if (!out.includes("\n")) {
    if (out === JSON.stringify(value)) return true;
    if (value.includes("\n")) return false;
    return out === value || out === `'${value.replaceAll("'", "''")}'`;
  }
  if (inFlow) return false;
  if (out.startsWith("|-\n")) return literalBlock(value, out.slice(3), indent);
  if (out.startsWith("|\n")) return value.endsWith("\n") && literalBlock(value.slice(0, -1), out.slice(2), indent);
  if (value.includes("\n")) return false;
  if (out.startsWith(">-\n")) {
    if (!out.startsWith(indent, 3)) return false;
    return foldedPieces(out.slice(3 + indent.length), indent)?.join(" ") === value;
  }
  return foldedPlain(value, out, indent);
}

/**
 * A literal block scalar's lines after its header (`|-`, or `|` for a value
 * ending in one line break): each line of the value after the indentation,
 * an empty line as nothing or as no more than the indentation's spaces. The
 * first line with text starts with no space (so the indentation is the
 * header's to find) and the last line has text (so chomping drops nothing).
 */
function literalBlock(value: string, body: string, indent: string): boolean {
  const lines = value.split("\n");
  const written = body.split("\n");
  if (lines.length !== written.length || !/[^ ]/.test(lines.at(-1)!)) return false;
  const first = lines.findIndex((line) => line !== "");
  if (first === -1 || lines[first]!.startsWith(" ")) return false;
  for (const [i, line] of lines.entries()) {
    const out = written[i]!;
    if (line === "" ? out !== "" && !(out.length <= indent.length && /^ +$/.test(out)) : out !== indent + line) return false;
  }
  return true;
}

/** A plain scalar folded between words: each continuation line starts with a character that cannot start an indicator. */
function foldedPlain(value: string, out: string, indent: string): boolean {
  if (/^["'|>]/.test(out)) return false;
  const pieces = foldedPieces(out, indent);
  return pieces !== undefined && pieces.join(" ") === value && pieces.every((piece, i) => i === 0 || !INDICATOR_START.test(piece));
}

function context(indent: string, implicitKey: boolean, inFlow: boolean | null, indentAtStart: number | undefined): StringifyContext {
  return {
    actualString: true,
    anchors: NO_ANCHORS,
    doc: DOC,
    flowCollectionPadding: " ",
    indent,
    indentStep: STEP,
    inFlow,
    implicitKey,
    indentAtStart,
    options: OPTIONS,
  };
}

function isPlainObject(value: object): value is Record<string, unknown> {
  return Object.getPrototypeOf(value) === Object.prototype;
}

/** The block style the layout gives a description: literal when it has lines, folded when long, double-quoted where a block would not keep it. */
export function descriptionStyle(value: string, blocks: boolean): Scalar.Type | undefined {
  const block = value.includes("\n") ? Scalar.BLOCK_LITERAL : value.length > FOLD_AT ? Scalar.BLOCK_FOLDED : undefined;
  if (block === undefined) return undefined;
  return blocks && (block === Scalar.BLOCK_LITERAL || foldSafe(value)) ? block : Scalar.QUOTE_DOUBLE;
}

/**
 * A one-line string a folded scalar keeps as it is wherever it sits: one that
 * starts with a space is "more indented" and not folded back (Twilio's
 * `max_size`), and whitespace at its end or a tab is where folding acts. A
 * literal block scalar is checked with the whole contract (contractYaml).
 */
function foldSafe(value: string): boolean {
  return !/^[ \t]|[ \t]$|\t|\r/.test(value);
}

/** Whether the layout writes an array on one line: scalars only, none with a line break, short as JSON. */
function flowList(items: readonly unknown[]): boolean {
  for (const item of items) if ((item !== null && typeof item === "object") || (typeof item === "string" && item.includes("\n"))) return false;
  return JSON.stringify(items).length <= FLOW_LIST_MAX;
}

class Writer {
  /** Whether every scalar so far reads back as itself (readsBack). */
  vouched = true;

  constructor(private readonly blocks: boolean) {}

  scalar(value: unknown, ctx: StringifyContext, type?: Scalar.Type): string {
    if (value === null) return "null";
    switch (typeof value) {
      case "boolean":
        return value ? "true" : "false";
      case "number":
        if (!Number.isFinite(value)) this.vouched = false;
        return stringifyNumber({ value } as Scalar);
      case "string": {
        const out = stringifyString({ value, type }, ctx);
        if (this.vouched && !readsBack(value, out, ctx.indent, ctx.inFlow === true)) this.vouched = false;
        return out;
      }
      default:
        throw OUTSIDE;
    }
  }

  /** A value in a block collection: a nested collection, with whether it is written on one line, or undefined for a scalar. */
  collection(value: unknown, indent: string): { text: string; flow: boolean } | undefined {
    if (value === null || typeof value !== "object") return undefined;
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype) throw OUTSIDE;
      for (let i = 0; i < value.length; i++) if (!(i in value)) throw OUTSIDE;
      return flowList(value) ? { text: this.flowSeq(value, indent), flow: true } : { text: this.blockSeq(value, indent), flow: false };
    }
    if (!isPlainObject(value)) throw OUTSIDE;
    const text = this.map(value, indent);
    return { text, flow: text === "{}" };
  }

  map(value: Record<string, unknown>, indent: string): string {
    const pairIndent = indent + STEP;
    let out = "";
    let first = true;
    for (const key of Object.keys(value)) {
      const pair = this.pair(key, value[key], pairIndent);
      out += first ? pair : `\n${indent}${pair}`;
      first = false;
    }
    return first ? "{}" : out;
  }

  pair(key: string, value: unknown, indent: string): string {
    if (value === undefined) throw OUTSIDE;
    if (key === "__proto__") this.vouched = false;
    const keyText = this.scalar(key, context(indent, true, null, undefined));
    if (keyText.length > MAX_IMPLICIT_KEY) throw OUTSIDE;
    const head = `${keyText}:`;
    const nested = this.collection(value, indent);
    if (nested !== undefined) return `${head}${nested.flow && !nested.text.includes("\n") ? " " : `\n${indent}`}${nested.text}`;
    const type = key === "description" && typeof value === "string" ? descriptionStyle(value, this.blocks) : undefined;
    const text = this.scalar(value, context(indent, false, null, head.length + 1), type);
    return `${head}${text === "" || text.startsWith("\n") ? "" : " "}${text}`;
  }

  blockSeq(items: readonly unknown[], indent: string): string {
    const itemIndent = indent + STEP;
    let out = "";
    for (const [i, item] of items.entries()) {
      if (item === undefined) throw OUTSIDE;
      const text = this.collection(item, itemIndent)?.text ?? this.scalar(item, context(itemIndent, false, null, undefined));
      out += i === 0 ? `- ${text}` : `\n${indent}- ${text}`;
    }
    return out;
  }

  flowSeq(items: readonly unknown[], indent: string): string {
    if (items.length === 0) return "[]";
    const ctx = context(indent + STEP + STEP, false, true, undefined);
    const lines = items.map((item, i) => this.scalar(item, ctx) + (i < items.length - 1 ? "," : ""));
    const multiline = lines.some((line) => line.includes("\n")) || lines.reduce((sum, line) => sum + line.length + 2, 2) > WRITE_OPTIONS.lineWidth;
    if (!multiline) return `[ ${lines.join(" ")} ]`;
    return `[${lines.map((line) => `\n${STEP}${indent}${line}`).join("")}\n${indent}]`;
  }
}

export interface EmittedYaml {
  /** The document, as `Document.toString` prints it (ending in a line break). */
  readonly text: string;
  /** Whether every scalar is in a form that reads back as the value it was printed from. */
  readonly vouched: boolean;
}

/**
 * The contract's YAML with descriptions as block scalars (`blocks`) or
 * double-quoted; undefined when the contract holds a value outside plain
 * JSON, or a layout this writer does not print (an explicit key).
 */
export function emitYaml(contract: unknown, blocks: boolean): EmittedYaml | undefined {
  if (contract === null || typeof contract !== "object" || Array.isArray(contract) || !isPlainObject(contract)) return undefined;
  const writer = new Writer(blocks);
  try {
    return { text: `${writer.map(contract, "")}\n`, vouched: writer.vouched };
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
}
