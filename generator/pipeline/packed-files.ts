/**
 * A tool's emitted files, held compressed from the moment the tool is
 * compiled until they are written. A run keeps every file until the write
 * (nothing is written unless every phase succeeded), and on a large API the
 * texts are most of what the compile keeps (GitHub's 1,223 tools: 70 MB of
 * text, 12 MB deflated), and the heap grows to about twice what it keeps.
 * A packed file reads like any other: `text` is inflated on each read (the
 * write, the build cache and the run's manifest read it once each), an own
 * enumerable property, so JSON, spreads and structured clones see it.
 */
import { createHash } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { hashText } from "../hash.js";
import type { EmittedFile } from "../ir.js";
import type { ToolEntry, ToolOutcome } from "./compile-tool.js";

/** Texts shorter than this are kept as they are: deflating them saves too little to pay for. */
const PACK_FROM_CHARS = 1024;

const PACKED = Symbol("packed");

/** What a packed file holds: its text deflated, and the text's length in UTF-16 units (what its content hash is prefixed with). */
interface Packed {
  readonly bytes: Uint8Array;
  readonly chars: number;
}

function packedOf(file: EmittedFile): Packed | undefined {
  return (file as { [PACKED]?: Packed })[PACKED];
}

/** A file read from its deflated bytes: `text` inflated on each read. */
function fromPacked(file: Omit<EmittedFile, "text">, packed: Packed): EmittedFile {
  const out = { path: file.path, ...(file.root === undefined ? {} : { root: file.root }), ...(file.part === undefined ? {} : { part: file.part }) };
  Object.defineProperty(out, "text", { enumerable: true, get: () => inflateRawSync(packed.bytes).toString("utf8") });
  Object.defineProperty(out, PACKED, { value: packed });
  return out as EmittedFile;
}

/** The file held deflated; a file packed already is returned as it is (reading its text would inflate it). */
export function packedFile(file: EmittedFile): EmittedFile {
  if (PACKED in file || file.text.length < PACK_FROM_CHARS) return file;
  // Level 1: a fifth of the size at a tenth of the default level's time.
  // Copied out: zlib's result is a view on a 16 KB chunk, which would keep 16 KB for every file however small it packs.
  const text = file.text;
  return fromPacked(file, { bytes: new Uint8Array(deflateRawSync(text, { level: 1 })), chars: text.length });
}

/** The bytes a packed file holds (its ArrayBuffer's size), or undefined for a file held as text. */
export function packedBytes(file: EmittedFile): number | undefined {
  return packedOf(file)?.bytes.buffer.byteLength;
}

/**
 * What to write for a file: a packed one's text as the inflated bytes, with
 * no string made of them (the write reads every file once, and on a large
 * API those strings were the write's garbage, 70 MB on GitHub's tools).
 */
export function contentOf(file: EmittedFile): string | Uint8Array {
  const packed = packedOf(file);
  return packed === undefined ? file.text : inflateRawSync(packed.bytes);
}

/**
 * hashText(file.text) (the hash the run's manifest keeps of each file), from
 * the content the write already has (contentOf): a packed file's bytes are
 * its text's UTF-8, so no string is made of them again to hash it.
 */
export function contentHash(file: EmittedFile, content: string | Uint8Array): string {
  if (typeof content === "string") return hashText(content);
  const chars = packedOf(file)?.chars;
  if (chars === undefined) throw new Error(`${file.path}: bytes given for a file not held packed`);
  return createHash("sha256").update(`${chars}:`).update(content).digest("hex");
}

/** The outcome with its files packed (a failed one has none). */
export function packedOutcome(outcome: ToolOutcome): ToolOutcome {
  return "failed" in outcome ? outcome : packedEntry(outcome);
}

export function packedEntry(entry: ToolEntry): ToolEntry {
  return { ...entry, files: entry.files.map(packedFile) };
}

/** A file as a build-cache entry holds it: a packed one as its deflated bytes (base64), not inflated to be written as text. */
type StoredFile = EmittedFile | (Omit<EmittedFile, "text"> & { readonly deflated: string; readonly chars: number });

/** A tool entry as the build cache stores it (stored, restored by storedEntry/restoredEntry). */
export interface StoredToolEntry extends Omit<ToolEntry, "files"> {
  readonly files: readonly StoredFile[];
}

/**
 * The entry to write to the build cache: packed files as their bytes, so a
 * cold run writing every tool's entry neither inflates nor serializes the
 * texts (on GitHub's 1,223 tools, 70 MB of text where the bytes are 12 MB).
 */
export function storedEntry(entry: ToolEntry): StoredToolEntry {
  return {
    ...entry,
    files: entry.files.map((file) => {
      const packed = packedOf(file);
      if (packed === undefined) return file;
      const { path, root, part } = file;
      return {
        path,
        ...(root === undefined ? {} : { root }),
        ...(part === undefined ? {} : { part }),
        deflated: Buffer.from(packed.bytes).toString("base64"),
        chars: packed.chars,
      };
    }),
  };
}

/** An entry read from the build cache: its stored files packed again as they were (storedEntry). */
export function restoredEntry(stored: StoredToolEntry): ToolEntry {
  return {
    ...stored,
    files: stored.files.map((file) =>
      "deflated" in file ? fromPacked(file, { bytes: new Uint8Array(Buffer.from(file.deflated, "base64")), chars: file.chars }) : file,
    ),
  };
}
