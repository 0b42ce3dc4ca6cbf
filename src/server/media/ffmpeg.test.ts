import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FfmpegError, ffmpegGlobalArgs, MEDIA_NICE, mediaTools, probe, runTool } from './ffmpeg';
import { testMediaTools } from '../testing/media-tools';
import { VIDEO_DEMUXERS } from './video';

const tools = testMediaTools();
const dir = mkdtempSync(path.join(os.tmpdir(), 'rv-ffmpeg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lavfi = (source: string) => ['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', source];

function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return readFileSync(`/proc/${e}/cmdline`, 'latin1').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * The ffmpeg processes among them. A run's process is first prlimit (then nice), each exec'ing the
 * next in place: while it execs, its command line may read empty, so it is counted once ffmpeg.
 */
function ffmpegsWith(marker: string): number[] {
  return processesWith(marker).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'latin1').trim() === 'ffmpeg';
    } catch {
      return false;
    }
  });
}

async function failure(run: Promise<unknown>): Promise<FfmpegError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FfmpegError);
  return error as FfmpegError;
}

describe('ffmpeg as a bounded child process', () => {
  it('runs ffmpeg and returns its stdout', async () => {
    const { stdout } = await runTool(tools, tools.ffmpeg, [...lavfi('color=c=red:s=4x4:d=0.04'), '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']);
    expect(stdout.length).toBe(4 * 4 * 3);
    expect(stdout[0]).toBeGreaterThan(240);
    expect(stdout[1] + stdout[2]).toBeLessThan(16);
  });

  it('says "ffmpeg is not installed" when the binary is missing', async () => {
    const missing = testMediaTools({ ffmpeg: path.join(dir, 'no-ffmpeg'), ffprobe: path.join(dir, 'no-ffprobe') });
    const run = await failure(runTool(missing, missing.ffmpeg, ['-version']));
    expect(run.failure).toBe('missing');
    expect(run.message).toBe('ffmpeg is not installed');
    const probed = await failure(probe(missing, path.join(dir, 'x.mp4'), VIDEO_DEMUXERS));
    expect(probed.failure).toBe('missing');
  });

  it('kills the process with SIGKILL at its time limit', async () => {
    const marker = `rv-timeout-${randomBytes(6).toString('hex')}`;
    // -re with an endless source never ends by itself: only the time limit can stop it.
    const run = await failure(runTool(tools, tools.ffmpeg, ['-re', ...lavfi('testsrc2=s=64x64'), '-metadata', `comment=${marker}`, '-f', 'null', '-'], { timeoutMs: 800 }));
    expect(run.failure).toBe('timeout');
    expect(run.exitSignal).toBe('SIGKILL');
    expect(processesWith(marker)).toEqual([]);
  });

  it('kills the process when the caller aborts', async () => {
    const controller = new AbortController();
    const marker = `rv-abort-${randomBytes(6).toString('hex')}`;
    const running = runTool(tools, tools.ffmpeg, [...lavfi('testsrc2=s=64x64'), '-metadata', `comment=${marker}`, '-f', 'null', '-'], { signal: controller.signal });
    running.catch(() => {}); // Checked below; a failed check above would otherwise leave its rejection unhandled.
    try {
      const deadline = Date.now() + 10_000;
      while (ffmpegsWith(marker).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(ffmpegsWith(marker).length).toBe(1);
    } finally {
      // Whatever happened above: a failed check must not leave an endless ffmpeg behind (one ran for an hour).
      controller.abort(new Error('stopping'));
    }
    const run = await failure(running);
    expect(run.failure).toBe('aborted');
    expect(processesWith(marker)).toEqual([]);
  });

  it('holds ffmpeg to its address-space limit: what fits runs, what does not fails as out of memory', async () => {
    expect(tools.prlimit, 'util-linux prlimit is installed with Debian').not.toBeNull();
    const small = testMediaTools({ memoryBytes: 300 * 1024 * 1024 });
    const clip4k = path.join(dir, '4k.mp4');
    await runTool(tools, tools.ffmpeg, [...lavfi('testsrc2=s=3840x2160:d=0.12'), '-c:v', 'libx264', '-preset', 'ultrafast', clip4k]);
    const encode4k = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-threads', '2', '-i', `file:${clip4k}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-threads', '2', '-f', 'null', '-'];
    // A small job fits in the small limit (also where the numeric libraries ffmpeg loads start thread pools)…
    await runTool(small, small.ffmpeg, [...lavfi('testsrc2=s=320x240:d=0.5'), '-f', 'null', '-']);
    // …a 4K encode does not, and fails plainly instead of growing…
    const run = await failure(runTool(small, small.ffmpeg, encode4k));
    expect(run.failure).toBe('memory');
    expect(run.message).toBe('ffmpeg needed more than its memory limit of 300 MB');
    // …while the default limit lets the same encode through.
    await runTool(tools, tools.ffmpeg, encode4k);
  }, 120_000);

  it('runs at the lowest CPU priority, with fewer threads than cores and one thread for the numeric libraries it loads', async () => {
    // The product's own tools (MEDIA_NICE), not the tests' (testing/media-tools.ts).
    const tools = mediaTools();
    expect(tools.nice, 'coreutils nice is installed with Debian').not.toBeNull();
    const marker = `rv-polite-${randomBytes(6).toString('hex')}`;
    const controller = new AbortController();
    const running = runTool(tools, tools.ffmpeg, [...ffmpegGlobalArgs(tools), '-re', '-f', 'lavfi', '-i', 'testsrc2=s=64x64', '-metadata', `comment=${marker}`, '-f', 'null', '-'], {
      signal: controller.signal,
    });
    try {
      const deadline = Date.now() + 10_000;
      let pid: number | undefined;
      // The process is first prlimit, then nice, then ffmpeg (each exec'ing in place): wait for ffmpeg with its libraries loaded.
      while (Date.now() < deadline) {
        pid = processesWith(marker)[0];
        if (pid !== undefined && readFileSync(`/proc/${pid}/comm`, 'latin1').trim() === 'ffmpeg' && readFileSync(`/proc/${pid}/maps`, 'latin1').includes('libopenblas')) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(pid).toBeDefined();
      // Field 19 of /proc/PID/stat (after the parenthesised command name) is the niceness.
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      expect(Number(fields[16])).toBe(MEDIA_NICE);
      // Threads: one core left for the server.
      const cores = os.availableParallelism();
      expect(tools.threads).toBe(Math.max(1, Math.min(2, cores - 1)));
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
      expect(cmdline[cmdline.indexOf('-filter_threads') + 1]).toBe(String(tools.threads));
      // OpenBLAS (Debian's libopenblas0, pulled in by other packages) is loaded, with one thread.
      expect(readFileSync(`/proc/${pid}/maps`, 'latin1'), 'CI installs libopenblas0 (.ci/run)').toMatch(/libopenblas/);
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      expect(environ).toContain('OPENBLAS_NUM_THREADS=1');
    } finally {
      controller.abort(new Error('done'));
      await running.catch(() => undefined);
    }
  });

  it('stops a run whose stdout passes its limit', async () => {
    const run = await failure(runTool(tools, tools.ffmpeg, [...lavfi('testsrc2=s=320x240:d=10'), '-f', 'rawvideo', 'pipe:1'], { maxStdoutBytes: 1024 * 1024 }));
    expect(run.failure).toBe('output_too_large');
  });

  it('stops a run whose output file passes its limit (the kernel’s file-size limit)', async () => {
    const out = path.join(dir, 'big.raw');
    const run = await failure(runTool(tools, tools.ffmpeg, [...lavfi('testsrc2=s=320x240:d=10'), '-f', 'rawvideo', '-y', out], { maxFileBytes: 512 * 1024 }));
    expect(run.failure).toBe('output_too_large');
    expect(readFileSync(out).length).toBeLessThanOrEqual(512 * 1024);
  });

  it('keeps the end of stderr as the reason of a failure', async () => {
    const run = await failure(runTool(tools, tools.ffmpeg, ['-hide_banner', '-nostdin', '-i', `file:${path.join(dir, 'nothing-here.mp4')}`]));
    expect(run.failure).toBe('failed');
    expect(run.message).toMatch(/^ffmpeg exited with status 1: .*No such file or directory/);
    expect(run.stderr).toMatch(/No such file or directory/);
  });

  it('never runs a shell: metacharacters in arguments stay arguments', async () => {
    const witness = path.join(dir, 'shell-ran');
    const name = path.join(dir, `x; touch ${witness}; $(touch ${witness}).mp4`);
    await failure(runTool(tools, tools.ffmpeg, ['-hide_banner', '-nostdin', '-i', `file:${name}`]));
    expect(existsSync(witness)).toBe(false);
  });

  it('reads only local files with the demuxers named: a playlist or concat list cannot reach other files', async () => {
    const secret = path.join(dir, 'secret.txt');
    writeFileSync(secret, 'not for ffmpeg');
    const playlist = path.join(dir, 'playlist.mp4');
    writeFileSync(playlist, `#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\nfile://${secret}\n#EXT-X-ENDLIST\n`);
    const concat = path.join(dir, 'concat.mp4');
    writeFileSync(concat, `ffconcat version 1.0\nfile '${secret}'\n`);
    for (const file of [playlist, concat]) {
      const run = await failure(probe(tools, file, VIDEO_DEMUXERS));
      expect(run.failure).toBe('failed');
      expect(run.stderr, 'refused by the demuxer whitelist').toMatch(/not on whitelist/);
    }
  });
});
