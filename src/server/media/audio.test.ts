import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIO_DEMUXERS, AUDIO_PREVIEW_SECONDS, deriveAudioPreview, LOUDNESS_TARGET_LUFS, reduceBlocks, TRUE_PEAK_CEILING_DB, WAVEFORM_PEAKS } from './audio';
import { MediaRejectedError } from './derived';
import { probe, runTool } from './ffmpeg';
import { testMediaTools } from '../testing/media-tools';
import { makeClip, pcmWav, sine } from '../testing/test-media';

const tools = testMediaTools();
const dir = mkdtempSync(path.join(os.tmpdir(), 'rv-audio-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function outDir(name: string) {
  const out = path.join(dir, name);
  await fs.mkdir(out);
  return out;
}

/** EBU R128 integrated loudness and true peak of a file, measured by ffmpeg's loudnorm. */
async function loudness(file: string): Promise<{ lufs: number; truePeak: number }> {
  const { stderr } = await runTool(tools, tools.ffmpeg, ['-hide_banner', '-nostdin', '-i', file, '-af', 'loudnorm=print_format=json', '-f', 'null', '-']);
  const json = JSON.parse(/\{[^{}]*"input_i"[^{}]*\}/.exec(stderr)![0]) as Record<string, string>;
  return { lufs: Number(json.input_i), truePeak: Number(json.input_tp) };
}

describe('audio preview', () => {
  it('brings a quiet sound to the target loudness as AAC in MP4, with its shape in the peaks', async () => {
    const rate = 48_000;
    // A quiet stereo tone that swells from silence over 6 s.
    const swell = (t: number) => 0.08 * (t / 6);
    const input = path.join(dir, 'swell.wav');
    writeFileSync(input, pcmWav([sine(6, rate, 440, swell), sine(6, rate, 660, swell)], rate));
    const preview = await deriveAudioPreview(tools, input, await outDir('swell'));

    expect(preview).toMatchObject({ kind: 'audio', sampleRate: rate, channels: 2 });
    expect(preview.duration).toBeCloseTo(6, 2);
    expect(preview.preview.duration).toBeCloseTo(6, 1);
    expect(preview.preview.fileName).toMatch(/^[0-9a-f]{32}\.m4a$/);
    const info = await probe(tools, preview.preview.path, AUDIO_DEMUXERS);
    expect(info.streams).toHaveLength(1);
    expect(info.streams[0]).toMatchObject({ codec_type: 'audio', codec_name: 'aac', sample_rate: String(rate), channels: 2 });

    expect(preview.loudness.gainDb).toBeGreaterThan(3);
    const measured = await loudness(preview.preview.path);
    expect(Math.abs(measured.lufs - LOUDNESS_TARGET_LUFS)).toBeLessThan(1);
    expect(measured.truePeak).toBeLessThanOrEqual(TRUE_PEAK_CEILING_DB + 0.5);

    expect(preview.peaks).toHaveLength(WAVEFORM_PEAKS);
    expect(preview.peaks.every((p) => p >= 0 && p <= 1)).toBe(true);
    expect(preview.peaks[10]).toBeLessThan(preview.peaks[100]);
    expect(preview.peaks[100]).toBeLessThan(preview.peaks[190]);
    expect(JSON.stringify(preview.peaks).length, 'small JSON').toBeLessThan(1500);
  }, 60_000);

  it('normalises a click too short to measure by its peak', async () => {
    const rate = 44_100;
    const input = path.join(dir, 'click.wav');
    writeFileSync(input, pcmWav([sine(0.08, rate, 2000, (t) => 0.05 * Math.exp(-t * 60))], rate));
    const preview = await deriveAudioPreview(tools, input, await outDir('click'));
    expect(preview.loudness.measuredLufs).toBeNull();
    expect(preview.loudness.gainDb).toBeCloseTo(TRUE_PEAK_CEILING_DB - preview.loudness.truePeakDb, 1);
    expect(Math.max(...preview.peaks)).toBeGreaterThan(0.7);
  }, 60_000);

  it('cuts a long sound to the preview length, and reads the sound of a video file', async () => {
    const long = await makeClip(tools, path.join(dir, 'long.mp4'), 'testsrc2=s=64x64:r=5[out0];sine=f=300:sample_rate=44100[out1]', 40, ['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac']);
    const preview = await deriveAudioPreview(tools, long, await outDir('long'));
    expect(preview.duration).toBeCloseTo(40, 0);
    expect(preview.preview.duration).toBeCloseTo(AUDIO_PREVIEW_SECONDS, 0);
    const info = await probe(tools, preview.preview.path, AUDIO_DEMUXERS);
    expect(info.streams.map((s) => s.codec_type), 'sound only').toEqual(['audio']);
    expect(Number(info.format.duration)).toBeCloseTo(AUDIO_PREVIEW_SECONDS, 0);
  }, 120_000);

  it('refuses silence', async () => {
    const input = path.join(dir, 'silence.wav');
    writeFileSync(input, pcmWav([new Float32Array(44_100)], 44_100));
    await expect(deriveAudioPreview(tools, input, await outDir('silence'))).rejects.toMatchObject({ reason: 'silent', message: 'The sound is silent.' });
  });

  it('fails with "ffmpeg is not installed" without ffmpeg', async () => {
    const input = path.join(dir, 'tone.wav');
    writeFileSync(input, pcmWav([sine(0.5, 44_100, 440)], 44_100));
    const missing = testMediaTools({ ffmpeg: path.join(dir, 'none'), ffprobe: path.join(dir, 'none-probe') });
    const error = await deriveAudioPreview(missing, input, await outDir('missing')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaRejectedError);
    expect((error as Error).message).toBe('ffmpeg is not installed');
  });

  it('reduces fine blocks to a fixed number of peaks, repeating blocks when there are fewer', () => {
    expect(reduceBlocks([0.1, 0.5, 0.2, 0.9], 2)).toEqual([0.5, 0.9]);
    expect(reduceBlocks([0.3, 0.6], 4)).toEqual([0.3, 0.3, 0.6, 0.6]);
  });
});
