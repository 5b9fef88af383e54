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
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { EmittedFile } from "../ir.js";
import type { ToolEntry, ToolOutcome } from "./compile-tool.js";

/** Texts shorter than this are kept as they are: deflating them saves too little to pay for. */
const PACK_FROM_CHARS = 1024;

const PACKED = Symbol("packed");

/** The file held deflated; a file packed already is returned as it is (reading its text would inflate it). */
export function packedFile(file: EmittedFile): EmittedFile {
  if (PACKED in file || file.text.length < PACK_FROM_CHARS) return file;
  // Level 1: a fifth of the size at a tenth of the default level's time.
  // Copied out: zlib's result is a view on a 16 KB chunk, which would keep 16 KB for every file however small it packs.
  const packed = new Uint8Array(deflateRawSync(file.text, { level: 1 }));
  const out = { path: file.path, ...(file.root === undefined ? {} : { root: file.root }), ...(file.part === undefined ? {} : { part: file.part }) };
  Object.defineProperty(out, "text", { enumerable: true, get: () => inflateRawSync(packed).toString("utf8") });
  Object.defineProperty(out, PACKED, { value: packed });
  return out as EmittedFile;
}

/** The bytes a packed file holds (its ArrayBuffer's size), or undefined for a file held as text. */
export function packedBytes(file: EmittedFile): number | undefined {
  return (file as { [PACKED]?: Uint8Array })[PACKED]?.buffer.byteLength;
}

/**
 * What to write for a file: a packed one's text as the inflated bytes, with
 * no string made of them (the write reads every file once, and on a large
 * API those strings were the write's garbage, 70 MB on GitHub's tools).
 */
export function contentOf(file: EmittedFile): string | Uint8Array {
  const packed = (file as { [PACKED]?: Uint8Array })[PACKED];
  return packed === undefined ? file.text : inflateRawSync(packed);
}

/** The outcome with its files packed (a failed one has none). */
export function packedOutcome(outcome: ToolOutcome): ToolOutcome {
  return "failed" in outcome ? outcome : packedEntry(outcome);
}

export function packedEntry(entry: ToolEntry): ToolEntry {
  return { ...entry, files: entry.files.map(packedFile) };
}
