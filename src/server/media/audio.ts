import fs from 'node:fs/promises';
import path from 'node:path';
import { adoptDerived, checkIsoBoxes, checkUpload, type DerivedFile, MediaRejectedError, rejectionFromFfmpeg } from './derived';
import { ffmpegGlobalArgs, FfmpegError, formatDuration, inputArgs, type MediaTools, parseSeconds, probe, type Probe, type ProbeStream, runTool } from './ffmpeg';

/**
 * A sound's preview: its first AUDIO_PREVIEW_SECONDS as AAC-LC in MP4 (every browser plays it),
 * brought to a common loudness with its dynamics kept (one gain, measured by EBU R128 and held
 * under a true-peak ceiling), and waveform peaks of that preview computed here from PCM that
 * ffmpeg decodes to a pipe. See docs/decisions/142-media-preview-formats.md.
 */

/** Demuxers (ffmpeg's names) a sound is read with: WAV, MP3, FLAC, Ogg, M4A/MP4, AIFF, WebM/MKA, ADTS AAC. */
export const AUDIO_DEMUXERS = ['wav', 'mp3', 'flac', 'ogg', 'mov', 'aiff', 'matroska', 'aac'] as const;
/** Decoders a sound may need (and every `pcm_*`); anything else is refused before it is decoded. */
export const AUDIO_CODECS = ['mp3', 'aac', 'flac', 'vorbis', 'opus', 'alac'] as const;
export const AUDIO_MAX_DURATION_SECONDS = 3600;
/** The largest sound a preview is made from (checked before a byte is read or copied): the duration limit of 24-bit 48 kHz stereo WAV. */
export const AUDIO_MAX_INPUT_BYTES = 1024 ** 3;
export const AUDIO_MIN_SAMPLE_RATE = 8000;
export const AUDIO_MAX_SAMPLE_RATE = 384_000;
export const AUDIO_MAX_CHANNELS = 8;
export const AUDIO_PREVIEW_SECONDS = 30;
export const AUDIO_PREVIEW_BITRATE = '128k';
/** Kept when the source has it; anything else is resampled to the first. */
export const AUDIO_PREVIEW_SAMPLE_RATES = [48_000, 44_100] as const;
/** EBU R128 integrated loudness the preview is brought to, as streaming services do. */
export const LOUDNESS_TARGET_LUFS = -16;
/** The gain never lifts a true peak above this (dBTP). */
export const TRUE_PEAK_CEILING_DB = -1.5;
/** Integrated loudness needs a few seconds; a shorter sound is normalised by its peak instead. */
export const LOUDNESS_MIN_SECONDS = 3;
/** The most a quiet recording is lifted (its noise comes up with it). */
export const MAX_GAIN_DB = 30;
/** Values in the waveform: a bar every few pixels across a card or the dialog. */
export const WAVEFORM_PEAKS = 200;
/** Rate of the PCM the peaks are computed from. */
export const PEAKS_SAMPLE_RATE = 16_000;
/** PCM samples summarised together before the peaks are taken (1 ms). */
const PEAK_BLOCK_SAMPLES = PEAKS_SAMPLE_RATE / 1000;
export const AUDIO_RUN_TIMEOUT_MS = 2 * 60_000;
export const AUDIO_PREVIEW_MAX_BYTES = 16 * 1024 * 1024;

const AUDIO_KINDS = 'a sound file (WAV, MP3, FLAC, Ogg, M4A, AIFF or WebM)';

export interface AudioPreview {
  kind: 'audio';
  /** Of the source, in seconds. */
  duration: number;
  sampleRate: number;
  channels: number;
  /** ffprobe's name of the container (`wav`, `mp3`, `mov,mp4,m4a,3gp,3g2,mj2`…). */
  formatName?: string | null;
  preview: DerivedFile & { duration: number };
  /** WAVEFORM_PEAKS values in 0–1: the preview's peak level over equal slices of it. */
  peaks: number[];
  loudness: { measuredLufs: number | null; truePeakDb: number; gainDb: number };
}

export async function deriveAudioPreview(tools: MediaTools, input: string, outDir: string, options: { signal?: AbortSignal } = {}): Promise<AudioPreview> {
  const size = await checkUpload(input, 'a sound file', AUDIO_MAX_INPUT_BYTES);
  await checkWavHeader(input, size);
  await checkIsoBoxes(input, size, 'sound');
  const info = await probe(tools, input, AUDIO_DEMUXERS, options).catch((error: unknown) => {
    throw error instanceof FfmpegError && error.failure === 'failed' ? new MediaRejectedError('not_audio', `This file is not ${AUDIO_KINDS}.`) : rejectionFromFfmpeg(error, 'sound');
  });
  const stream = checkAudio(info);
  const work = await fs.mkdtemp(path.join(outDir, '.work-'));
  try {
    const duration = parseSeconds(info.format.duration) || parseSeconds(stream.duration);
    const measured = await measure(tools, input, stream, options.signal);
    if (measured.peak === 0 || measured.truePeakDb === -Infinity) throw new MediaRejectedError('silent', 'The sound is silent.');
    const previewDuration = measured.samples / PEAKS_SAMPLE_RATE;
    const loudnessGain =
      measured.lufs !== null && previewDuration >= LOUDNESS_MIN_SECONDS ? LOUDNESS_TARGET_LUFS - measured.lufs : Number.POSITIVE_INFINITY;
    const gainDb = round2(Math.min(loudnessGain, TRUE_PEAK_CEILING_DB - measured.truePeakDb, MAX_GAIN_DB));
    const preview = await encode(tools, input, stream, gainDb, work, options.signal);
    const gain = 10 ** (gainDb / 20);
    return {
      kind: 'audio',
      duration: duration || previewDuration,
      sampleRate: Number(stream.sample_rate),
      channels: stream.channels ?? 0,
      formatName: info.format.format_name ?? null,
      preview: { ...(await adoptDerived(preview, outDir, 'm4a', 'audio/mp4')), duration: round2(previewDuration) },
      peaks: measured.peaks.map((p) => Math.round(Math.min(1, p * gain) * 1000) / 1000),
      loudness: { measuredLufs: measured.lufs, truePeakDb: measured.truePeakDb, gainDb },
    };
  } catch (error) {
    throw rejectionFromFfmpeg(error, 'sound');
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * A WAV's header read directly, because ffmpeg quietly trusts the file's length over it: a data
 * chunk that claims more sound than the limit, or more bytes than the file holds, is refused
 * (0 and 0xFFFFFFFF are what streaming recorders write while the length is unknown).
 */
async function checkWavHeader(file: string, size: number): Promise<void> {
  const handle = await fs.open(file);
  try {
    const head = Buffer.alloc(Math.min(size, 4096));
    await handle.read(head, 0, head.length, 0);
    if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return;
    let byteRate = 0;
    for (let at = 12; at + 8 <= head.length; ) {
      const id = head.toString('latin1', at, at + 4);
      const length = head.readUInt32LE(at + 4);
      if (id === 'fmt ' && at + 20 <= head.length) byteRate = head.readUInt32LE(at + 16);
      if (id === 'data') {
        if (length === 0 || length === 0xffffffff) return;
        const claimed = byteRate > 0 ? length / byteRate : 0;
        if (claimed > AUDIO_MAX_DURATION_SECONDS) {
          throw new MediaRejectedError('too_long', `The sound’s header says it is ${formatDuration(claimed)} long; the limit is ${formatDuration(AUDIO_MAX_DURATION_SECONDS)}.`);
        }
        const held = size - (at + 8);
        if (length > held) {
          throw new MediaRejectedError(
            'damaged',
            `The WAV file is incomplete: its header promises ${length.toLocaleString('en-US')} bytes of sound but the file holds ${held.toLocaleString('en-US')}. Export it again and upload the whole file.`,
          );
        }
        return;
      }
      at += 8 + length + (length % 2);
    }
  } finally {
    await handle.close();
  }
}

function checkAudio(info: Probe): ProbeStream {
  const stream = info.streams.find((s) => s.codec_type === 'audio');
  if (!stream) {
    const video = info.streams.some((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
    throw new MediaRejectedError('no_audio_stream', video ? 'This file has video but no sound.' : 'This file has no audio stream.');
  }
  const codec = stream.codec_name ?? '';
  if (!codec.startsWith('pcm_') && !(AUDIO_CODECS as readonly string[]).includes(codec)) {
    throw new MediaRejectedError('unsupported_codec', `The sound is encoded as ${codec || 'an unknown format'}, which is not supported. Export it as WAV, MP3, FLAC, AAC or Opus.`);
  }
  const rate = Number(stream.sample_rate);
  if (!(rate >= AUDIO_MIN_SAMPLE_RATE && rate <= AUDIO_MAX_SAMPLE_RATE)) {
    const said = Number.isFinite(rate) ? `${rate.toLocaleString('en-US')} Hz` : 'unknown';
    throw new MediaRejectedError(
      'implausible',
      `The sound’s sample rate is ${said}; it must be ${AUDIO_MIN_SAMPLE_RATE.toLocaleString('en-US')} to ${AUDIO_MAX_SAMPLE_RATE.toLocaleString('en-US')} Hz.`,
    );
  }
  const channels = stream.channels ?? 0;
  if (channels < 1 || channels > AUDIO_MAX_CHANNELS) {
    throw new MediaRejectedError('implausible', `The sound says it has ${channels} channels; it may have 1 to ${AUDIO_MAX_CHANNELS}.`);
  }
  const duration = parseSeconds(info.format.duration) || parseSeconds(stream.duration);
  if (duration > AUDIO_MAX_DURATION_SECONDS) {
    throw new MediaRejectedError('too_long', `The sound says it is ${formatDuration(duration)} long; the limit is ${formatDuration(AUDIO_MAX_DURATION_SECONDS)}.`);
  }
  return stream;
}

interface Measured {
  /** Integrated loudness (LUFS), null when too short or quiet to measure. */
  lufs: number | null;
  truePeakDb: number;
  /** Largest sample magnitude of the PCM (0–1). */
  peak: number;
  samples: number;
  peaks: number[];
}

/** One decode of the preview's span: loudness and true peak from loudnorm, peaks from the PCM on stdout. */
async function measure(tools: MediaTools, input: string, stream: ProbeStream, signal?: AbortSignal): Promise<Measured> {
  const channels = stream.channels ?? 1;
  const blocks: number[] = [];
  let blockMax = 0;
  let inBlock = 0;
  let samples = 0;
  let carry = Buffer.alloc(0);
  const frameBytes = 2 * channels;
  const { stderr } = await runTool(
    tools,
    tools.ffmpeg,
    [
      // loudnorm prints its measurement at the info level.
      ...ffmpegGlobalArgs(tools, 'info'),
      ...inputArgs(tools, input, AUDIO_DEMUXERS, ['-t', String(AUDIO_PREVIEW_SECONDS)]),
      '-filter_complex',
      `[0:${stream.index}]asplit=2[l][p];[l]loudnorm=I=${LOUDNESS_TARGET_LUFS}:TP=${TRUE_PEAK_CEILING_DB}:print_format=json[lo];` +
        `[p]aresample=${PEAKS_SAMPLE_RATE},aformat=sample_fmts=s16[pcm]`,
      '-map',
      '[lo]',
      '-f',
      'null',
      '-',
      '-map',
      '[pcm]',
      '-f',
      's16le',
      'pipe:1',
    ],
    {
      timeoutMs: AUDIO_RUN_TIMEOUT_MS,
      maxFileBytes: 0,
      maxStdoutBytes: (AUDIO_PREVIEW_SECONDS + 1) * PEAKS_SAMPLE_RATE * frameBytes,
      signal,
      onStdout(chunk) {
        const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
        const whole = data.length - (data.length % frameBytes);
        for (let at = 0; at < whole; at += 2) {
          const v = Math.abs(data.readInt16LE(at)) / 32768;
          if (v > blockMax) blockMax = v;
          if ((at / 2 + 1) % channels === 0 && ++inBlock === PEAK_BLOCK_SAMPLES) {
            blocks.push(blockMax);
            blockMax = 0;
            inBlock = 0;
          }
        }
        samples += whole / frameBytes;
        carry = Buffer.from(data.subarray(whole));
      },
    },
  );
  if (inBlock > 0) blocks.push(blockMax);
  const json = /\{[^{}]*"input_i"[^{}]*\}/.exec(stderr)?.[0];
  const stats = json ? (JSON.parse(json) as Record<string, string>) : {};
  const lufs = Number(stats.input_i);
  const truePeak = Number(stats.input_tp);
  const peak = blocks.reduce((m, v) => Math.max(m, v), 0);
  return {
    lufs: Number.isFinite(lufs) && lufs > -70 ? lufs : null,
    // loudnorm's true peak when it has one; else the sample peak.
    truePeakDb: Number.isFinite(truePeak) ? truePeak : peak > 0 ? 20 * Math.log10(peak) : -Infinity,
    peak,
    samples,
    peaks: reduceBlocks(blocks, WAVEFORM_PEAKS),
  };
}

/** `count` values, each the largest of an equal share of `blocks` (repeating blocks when there are fewer). */
export function reduceBlocks(blocks: number[], count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * blocks.length) / count);
    const to = Math.max(from + 1, Math.floor(((i + 1) * blocks.length) / count));
    let max = 0;
    for (let j = from; j < to && j < blocks.length; j++) max = Math.max(max, blocks[j]);
    out.push(max);
  }
  return out;
}

async function encode(tools: MediaTools, input: string, stream: ProbeStream, gainDb: number, work: string, signal?: AbortSignal): Promise<string> {
  const file = path.join(work, 'preview.m4a');
  const rate = Number(stream.sample_rate);
  const outRate = (AUDIO_PREVIEW_SAMPLE_RATES as readonly number[]).includes(rate) ? rate : AUDIO_PREVIEW_SAMPLE_RATES[0];
  await runTool(
    tools,
    tools.ffmpeg,
    [
      ...ffmpegGlobalArgs(tools),
      ...inputArgs(tools, input, AUDIO_DEMUXERS, ['-t', String(AUDIO_PREVIEW_SECONDS)]),
      '-map',
      `0:${stream.index}`,
      '-af',
      `volume=${gainDb}dB`,
      '-ar',
      String(outRate),
      '-ac',
      String(Math.min(2, stream.channels ?? 2)),
      '-c:a',
      'aac',
      '-b:a',
      AUDIO_PREVIEW_BITRATE,
      '-map_metadata',
      '-1',
      '-vn',
      '-sn',
      '-dn',
      '-movflags',
      '+faststart',
      file,
    ],
    { timeoutMs: AUDIO_RUN_TIMEOUT_MS, maxFileBytes: AUDIO_PREVIEW_MAX_BYTES, signal, cwd: work },
  );
  return file;
}
