/**
 * The smallest real media the conformance scenarios ask for, built from
 * their formats rather than pasted as opaque base64: a 1x1 red PNG and a
 * tenth of a second of silent 16-bit mono WAV.
 */
import { crc32, deflateSync } from "node:zlib";

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function redPixelPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: truecolour (RGB)
  // compression, filter and interlace methods stay 0
  const scanline = Buffer.from([0, 0xff, 0, 0]); // filter type 0, then one red pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(scanline)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function silentWav(sampleRate: number, samples: number): Buffer {
  const bytesPerSample = 2;
  const dataBytes = samples * bytesPerSample;
  const out = Buffer.alloc(44 + dataBytes); // the samples stay zero: silence
  out.write("RIFF", 0, "latin1");
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write("WAVE", 8, "latin1");
  out.write("fmt ", 12, "latin1");
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * bytesPerSample, 28); // byte rate
  out.writeUInt16LE(bytesPerSample, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write("data", 36, "latin1");
  out.writeUInt32LE(dataBytes, 40);
  return out;
}

export const RED_PIXEL_PNG_BASE64 = redPixelPng().toString("base64");
export const SILENT_WAV_BASE64 = silentWav(8000, 800).toString("base64");
