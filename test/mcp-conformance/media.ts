/**
 * The smallest real media the conformance scenarios ask for, built from
 * their formats rather than pasted as opaque base64: a 1x1 red PNG and a
 * tenth of a second of silent 16-bit mono WAV. Web-standard bytes only (no
 * `node:zlib`, no `Buffer`), so the same handlers also run as a Worker
 * without `nodejs_compat` (test/web-runtimes/conformance-worker.ts): the
 * PNG's image data is a zlib stream of one stored deflate block, which every
 * inflater reads.
 */

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const u32be = (n: number): number[] => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u32le = (n: number): number[] => u32be(n).reverse();
const u16le = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff];
const latin1 = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** A zlib stream (RFC 1950) holding `data` in one stored, final deflate block (RFC 1951 §3.2.4). */
function zlibStored(data: Uint8Array): number[] {
  const length = data.length;
  return [0x78, 0x01, 0x01, ...u16le(length), ...u16le(~length & 0xffff), ...data, ...u32be(adler32(data))];
}

function pngChunk(type: string, data: readonly number[]): number[] {
  const body = Uint8Array.from([...latin1(type), ...data]);
  return [...u32be(data.length), ...body, ...u32be(crc32(body))];
}

function redPixelPng(): Uint8Array {
  // width 1, height 1, bit depth 8, colour type 2 (truecolour RGB); compression, filter and interlace methods 0
  const header = [...u32be(1), ...u32be(1), 8, 2, 0, 0, 0];
  const scanline = Uint8Array.from([0, 0xff, 0, 0]); // filter type 0, then one red pixel
  return Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...pngChunk("IHDR", header), ...pngChunk("IDAT", zlibStored(scanline)), ...pngChunk("IEND", [])]);
}

function silentWav(sampleRate: number, samples: number): Uint8Array {
  const bytesPerSample = 2;
  const dataBytes = samples * bytesPerSample;
  const header = [
    ...latin1("RIFF"),
    ...u32le(36 + dataBytes),
    ...latin1("WAVE"),
    ...latin1("fmt "),
    ...u32le(16), // fmt chunk size
    ...u16le(1), // PCM
    ...u16le(1), // mono
    ...u32le(sampleRate),
    ...u32le(sampleRate * bytesPerSample), // byte rate
    ...u16le(bytesPerSample), // block align
    ...u16le(16), // bits per sample
    ...latin1("data"),
    ...u32le(dataBytes),
  ];
  const out = new Uint8Array(44 + dataBytes); // the samples stay zero: silence
  out.set(header);
  return out;
}

const base64 = (bytes: Uint8Array): string => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));

export const RED_PIXEL_PNG_BASE64 = base64(redPixelPng());
export const SILENT_WAV_BASE64 = base64(silentWav(8000, 800));
