/**
 * The media the conformance handlers attach are what their MIME types say:
 * a 1x1 red PNG and a silent PCM WAV, read back by their formats' rules.
 */
import { crc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { RED_PIXEL_PNG_BASE64, SILENT_WAV_BASE64 } from "./media.js";

interface Chunk {
  type: string;
  data: Buffer;
}

function pngChunks(png: Buffer): Chunk[] {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: Chunk[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const typeAndData = png.subarray(at + 4, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), "chunk CRC").toBe(crc32(typeAndData));
    chunks.push({ type: typeAndData.subarray(0, 4).toString("latin1"), data: typeAndData.subarray(4) });
    at += 12 + length;
  }
  return chunks;
}

describe("conformance media", () => {
  it("the image is a 1x1 8-bit RGB PNG of one red pixel", () => {
    const chunks = pngChunks(Buffer.from(RED_PIXEL_PNG_BASE64, "base64"));
    expect(chunks.map((c) => c.type)).toEqual(["IHDR", "IDAT", "IEND"]);
    const header = chunks[0]!.data;
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([1, 1, 8, 2]);
    expect([...inflateSync(chunks[1]!.data)]).toEqual([0, 0xff, 0, 0]);
  });

  it("the audio is a RIFF/WAVE file of 16-bit mono PCM silence whose sizes add up", () => {
    const wav = Buffer.from(SILENT_WAV_BASE64, "base64");
    expect([wav.toString("latin1", 0, 4), wav.toString("latin1", 8, 12), wav.toString("latin1", 12, 16), wav.toString("latin1", 36, 40)]).toEqual(["RIFF", "WAVE", "fmt ", "data"]);
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt16LE(34)]).toEqual([1, 1, 16]);
    const dataBytes = wav.readUInt32LE(40);
    expect(dataBytes).toBe(wav.length - 44);
    expect(dataBytes).toBeGreaterThan(0);
    expect(wav.subarray(44).every((byte) => byte === 0)).toBe(true);
  });
});
