import { ffmpegGlobalArgs, type MediaTools, runTool } from '../media/ffmpeg';

/**
 * Small media made in tests: clips from ffmpeg's synthetic sources, WAVs from samples, and a
 * minimal Matroska writer for files whose headers claim what no encoder would write.
 */

/** Encodes a lavfi graph (its last output) to `file` with extra output arguments. */
export async function makeClip(tools: MediaTools, file: string, graph: string, seconds: number, output: string[] = []): Promise<string> {
  await runTool(tools, tools.ffmpeg, [...ffmpegGlobalArgs(tools), '-f', 'lavfi', '-t', String(seconds), '-i', graph, ...output, file], { timeoutMs: 120_000 });
  return file;
}

/** H.264 in MP4, yuv420p, fast to encode. */
export const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

/** A 16-bit PCM WAV from per-channel samples (-1..1). */
export function pcmWav(channels: Float32Array[], rate: number): Buffer {
  const frames = channels[0].length;
  const data = Buffer.alloc(frames * channels.length * 2);
  for (let i = 0; i < frames; i++) {
    channels.forEach((c, ch) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, c[i])) * 32767), (i * channels.length + ch) * 2));
  }
  return Buffer.concat([wavHeader({ rate, channels: channels.length, dataBytes: data.length }), data]);
}

/** A canonical 44-byte WAV header; every field can be made to lie. */
export function wavHeader(h: { rate: number; channels: number; dataBytes: number; byteRate?: number }): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE((36 + h.dataBytes) >>> 0, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(h.channels, 22);
  header.writeUInt32LE(h.rate, 24);
  header.writeUInt32LE(h.byteRate ?? h.rate * h.channels * 2, 28);
  header.writeUInt16LE(h.channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(h.dataBytes >>> 0, 40);
  return header;
}

export function sine(seconds: number, rate: number, freq: number, amplitude: (t: number) => number = () => 0.5): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < out.length; i++) out[i] = amplitude(i / rate) * Math.sin((2 * Math.PI * freq * i) / rate);
  return out;
}

// ---- Matroska, written by hand ----

function ebmlSize(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  b[0] = 0x01; // 8-byte size marker (n < 2^56)
  return b;
}
function element(id: string, body: Buffer | Buffer[]): Buffer {
  const data = Array.isArray(body) ? Buffer.concat(body) : body;
  return Buffer.concat([Buffer.from(id, 'hex'), ebmlSize(data.length), data]);
}
const uint = (id: string, v: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(v));
  return element(id, b);
};
const text = (id: string, s: string) => element(id, Buffer.from(s, 'latin1'));
const float = (id: string, v: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(v);
  return element(id, b);
};

/** A Matroska file with one video track claiming `width` × `height` and one small block of junk. */
export function matroskaClaiming(width: number, height: number, codec = 'V_VP9', durationMs = 10_000): Buffer {
  const header = element('1a45dfa3', [uint('4286', 1), uint('42f7', 1), uint('42f2', 4), uint('42f3', 8), text('4282', 'matroska'), uint('4287', 4), uint('4285', 2)]);
  const info = element('1549a966', [uint('2ad7b1', 1_000_000), float('4489', durationMs)]);
  const track = element('ae', [uint('d7', 1), uint('73c5', 1), uint('83', 1), text('86', codec), element('e0', [uint('b0', width), uint('ba', height)])]);
  const cluster = element('1f43b675', [uint('e7', 0), element('a3', Buffer.concat([Buffer.from([0x81, 0, 0, 0x80]), Buffer.alloc(16)]))]);
  return Buffer.concat([header, element('18538067', [info, element('1654ae6b', track), cluster])]);
}

/** Index of an ISO-BMFF box's type (e.g. `moov`) in a file, or -1. */
export const boxAt = (file: Buffer, type: string) => file.indexOf(Buffer.from(type, 'latin1'));

/** An MP4/M4A whose mvhd and every mdhd claim `seconds` (version 0 boxes, as ffmpeg writes them). */
export function claimDuration(mp4: Buffer, seconds: number): Buffer {
  const out = Buffer.from(mp4);
  for (const type of ['mvhd', 'mdhd']) {
    for (let at = out.indexOf(type); at >= 0; at = out.indexOf(type, at + 4)) {
      // type, version+flags, creation, modification, timescale, duration
      const timescale = out.readUInt32BE(at + 16);
      out.writeUInt32BE(Math.min(0xffffffff, timescale * seconds), at + 20);
    }
  }
  return out;
}

/** An MP4 whose (first) track header says to show it turned a quarter turn, as phones write portrait videos. */
export function quarterTurn(mp4: Buffer): Buffer {
  const out = Buffer.from(mp4);
  const tkhd = out.indexOf('tkhd') - 4;
  // Version 0 tkhd: the 3×3 display matrix starts 48 bytes into the box (16.16 fixed point, w in 2.30).
  [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x40000000].forEach((v, i) => out.writeInt32BE(v, tkhd + 48 + i * 4));
  return out;
}
