import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * ffmpeg and ffprobe as bounded child processes: never through a shell, killed with SIGKILL after
 * a time limit or when the caller aborts, with a hard address-space limit and a limit on the size
 * of any file they write (both set by `prlimit` from util-linux, which execs the tool in place),
 * a bounded amount of stdout, the last few KB of stderr kept for the failure reason, a minimal
 * environment and an input restricted to local files of the demuxers the caller names. They run at
 * the lowest CPU priority (`nice` from coreutils, also exec'ing in place) with fewer threads than
 * the machine has cores, so visitors' requests keep their latency while previews are made. See
 * docs/decisions/141-media-ffmpeg-bounds.md and 350-media-tools-bounded-and-polite.md.
 */

/** Address space of one run: decoding 8K H.264 and encoding 720p with FFMPEG_THREADS fits well inside it. */
export const FFMPEG_MEMORY_BYTES = 1536 * 1024 * 1024;
/** Largest single allocation ffmpeg may make (`-max_alloc`); an 8K frame is about a quarter of it. */
export const FFMPEG_MAX_ALLOC_BYTES = 256 * 1024 * 1024;
/**
 * Threads per codec and filter graph: one core is left to the server's own thread (and at most two
 * are used, as the job runner does one job at a time per instance).
 */
export const FFMPEG_THREADS = Math.max(1, Math.min(2, os.availableParallelism() - 1));
/** The niceness media tools run at: the lowest priority, so they take only the CPU visitors leave. */
export const MEDIA_NICE = 19;
/** Default time limit of one run; a derivation passes its own. */
export const FFMPEG_TIMEOUT_MS = 5 * 60_000;
/** Default limit on any file one run writes; a derivation passes its own. */
export const FFMPEG_MAX_FILE_BYTES = 256 * 1024 * 1024;
/** Default limit on what one run may write to stdout. */
export const FFMPEG_MAX_STDOUT_BYTES = 16 * 1024 * 1024;
/** The end of stderr kept for a failure's reason. */
export const STDERR_TAIL_BYTES = 8 * 1024;

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
  /** `prlimit` from util-linux, or null to run without the address-space and file-size limits. */
  prlimit: string | null;
  /** `nice` from coreutils, or null to run at the server's own priority. */
  nice: string | null;
  memoryBytes: number;
  threads: number;
  /** Niceness of every run (with `nice`). */
  niceness: number;
}

/** The tools from Debian's packages (`ffmpeg`, `util-linux`, `coreutils`); `prlimit` and `nice` are used only when present. */
export function mediaTools(overrides: Partial<MediaTools> = {}): MediaTools {
  return {
    ffmpeg: '/usr/bin/ffmpeg',
    ffprobe: '/usr/bin/ffprobe',
    prlimit: findExecutable(['/usr/bin/prlimit', '/bin/prlimit']),
    nice: findExecutable(['/usr/bin/nice', '/bin/nice']),
    memoryBytes: FFMPEG_MEMORY_BYTES,
    threads: FFMPEG_THREADS,
    niceness: MEDIA_NICE,
    ...overrides,
  };
}

function findExecutable(candidates: string[]): string | null {
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // next
    }
  }
  return null;
}

/** Whether ffmpeg and ffprobe are there to run (without them, video and audio work fails with "ffmpeg is not installed"). */
export function ffmpegInstalled(tools: MediaTools): boolean {
  return findExecutable([tools.ffmpeg]) !== null && findExecutable([tools.ffprobe]) !== null;
}

export type FfmpegFailure = 'missing' | 'timeout' | 'aborted' | 'memory' | 'output_too_large' | 'no_space' | 'failed';

/** A run that did not finish cleanly; `message` is for people, `stderr` the tool's last words. */
export class FfmpegError extends Error {
  constructor(
    public readonly failure: FfmpegFailure,
    message: string,
    public readonly stderr = '',
    public readonly exitCode: number | null = null,
    public readonly exitSignal: NodeJS.Signals | null = null,
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

export interface RunOptions {
  timeoutMs?: number;
  /** Aborting kills the process at once (the job runner's time limit, or a shutdown). */
  signal?: AbortSignal;
  /** Any file the process writes is cut (and the run fails) past this size. */
  maxFileBytes?: number;
  /** stdout is collected up to this many bytes (the run fails past it), unless `onStdout` takes it. */
  maxStdoutBytes?: number;
  /** Streams stdout to the caller instead of collecting it (still bounded by maxStdoutBytes). */
  onStdout?: (chunk: Buffer) => void;
  /** Working directory (a job's own temporary directory). */
  cwd?: string;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

/**
 * Numeric libraries ffmpeg links (OpenBLAS through libblas3, OpenMP) start a thread pool sized by
 * the machine when they load, each thread with its own buffers: under the address-space limit
 * that start-up alone fails ("OpenBLAS blas_thread_init: pthread_create failed"), before any
 * media is read. One thread each (and glibc's arenas shared), so the limit holds the work and not
 * the libraries' start-up (docs/decisions/350-media-tools-bounded-and-polite.md).
 */
export const LIBRARY_THREAD_ENV = {
  OPENBLAS_NUM_THREADS: '1',
  OMP_NUM_THREADS: '1',
  /** glibc reserves address space for a malloc arena per thread; two are shared by all of them. */
  MALLOC_ARENA_MAX: '2',
} as const;

/** A minimal environment: ffmpeg reads FFREPORT (writes a log file) and AV_LOG_* from the server's own. */
function toolEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', ...LIBRARY_THREAD_ENV };
}

const toolName = (tools: MediaTools, file: string) => (file === tools.ffprobe ? 'ffprobe' : 'ffmpeg');

/**
 * Runs `ffmpeg` or `ffprobe` (`bin` is `tools.ffmpeg` or `tools.ffprobe`) with `args`, bounded as
 * this module describes. Resolves when it exits with status 0; otherwise rejects with FfmpegError.
 */
export async function runTool(tools: MediaTools, bin: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const name = toolName(tools, bin);
  try {
    await fs.access(bin, constants.X_OK);
  } catch {
    throw new FfmpegError('missing', `${name === 'ffprobe' ? 'ffmpeg (ffprobe)' : 'ffmpeg'} is not installed`);
  }
  const timeoutMs = options.timeoutMs ?? FFMPEG_TIMEOUT_MS;
  const maxFileBytes = options.maxFileBytes ?? FFMPEG_MAX_FILE_BYTES;
  const maxStdoutBytes = options.maxStdoutBytes ?? FFMPEG_MAX_STDOUT_BYTES;
  if (options.signal?.aborted) throw abortedError(options.signal);

  // Each wrapper execs the next in place, so the process that runs (and is killed) is the tool's.
  const niced = tools.nice ? [tools.nice, '-n', String(tools.niceness), bin, ...args] : [bin, ...args];
  const [command, ...commandArgs] = tools.prlimit ? [tools.prlimit, `--as=${tools.memoryBytes}`, `--fsize=${maxFileBytes}`, '--core=0', '--', ...niced] : niced;
  const child = spawn(command, commandArgs, {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd,
    env: toolEnvironment(),
  });

  let ended: FfmpegError | undefined;
  const kill = (error: FfmpegError) => {
    ended ??= error;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(
    () => kill(new FfmpegError('timeout', `${name} took longer than ${formatSeconds(timeoutMs)} and was stopped`)),
    timeoutMs,
  );
  const onAbort = () => kill(abortedError(options.signal!));
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    if (stdoutBytes > maxStdoutBytes) {
      kill(new FfmpegError('output_too_large', `${name} produced more than ${formatBytes(maxStdoutBytes)} of output and was stopped`));
      return;
    }
    if (options.onStdout) options.onStdout(chunk);
    else stdout.push(chunk);
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES);
  });

  try {
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c, s) => resolve([c, s]));
    });
    if (ended) throw new FfmpegError(ended.failure, ended.message, stderr, code, signal);
    if (code === 0) return { stdout: Buffer.concat(stdout), stderr };
    throw classifyExit(name, code, signal, stderr, tools, maxFileBytes);
  } catch (error) {
    if (error instanceof FfmpegError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FfmpegError('missing', `${name} is not installed`);
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** The error a run stopped by `signal` fails with (failure `aborted`, the signal's reason as its message). */
export function abortedError(signal: AbortSignal): FfmpegError {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'the job was stopped';
  return new FfmpegError('aborted', reason);
}

/** How a run short of address space ends; a thread it cannot start (no room for its stack) says EAGAIN. */
const MEMORY_SIGNS = /cannot allocate memory|out of memory|failed to map segment|bad_alloc|malloc.*fail|resource temporarily unavailable/i;

function classifyExit(
  name: string,
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
  tools: MediaTools,
  maxFileBytes: number,
): FfmpegError {
  if (signal === 'SIGXFSZ' || /file too large/i.test(stderr)) {
    return new FfmpegError('output_too_large', `${name} wrote more than ${formatBytes(maxFileBytes)} and was stopped`, stderr, code, signal);
  }
  if (/no space left on device/i.test(stderr)) {
    return new FfmpegError('no_space', `${name} ran out of disk space`, stderr, code, signal);
  }
  if (tools.prlimit && MEMORY_SIGNS.test(stderr)) {
    return new FfmpegError('memory', `${name} needed more than its memory limit of ${formatBytes(tools.memoryBytes)}`, stderr, code, signal);
  }
  const how = signal ? `was stopped by ${signal}` : `exited with status ${code}`;
  return new FfmpegError('failed', `${name} ${how}: ${lastError(stderr) || 'no message'}`, stderr, code, signal);
}

/** The last line of stderr that says something, without ffmpeg's `[demuxer @ 0x…]` prefix. */
export function lastError(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.replace(/^\[[^\]]*@ 0x[0-9a-f]+\]\s*/i, '').trim())
    .filter((l) => l && !/^(last message repeated|conversion failed)/i.test(l));
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}

/** ffmpeg's own allocation and thread limits, and quiet output: put before everything else. */
export function ffmpegGlobalArgs(tools: MediaTools, logLevel: 'warning' | 'info' = 'warning'): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    '-loglevel',
    logLevel,
    '-max_alloc',
    String(FFMPEG_MAX_ALLOC_BYTES),
    '-filter_threads',
    String(tools.threads),
    '-y',
  ];
}

/**
 * An input restricted to a local file read by one of `demuxers` (ffmpeg's names, e.g. `mov`,
 * `matroska`, `wav`): a playlist or a concat list inside an upload cannot make ffmpeg open other
 * files or URLs. The path is given as `file:` so no part of it is read as a protocol.
 */
export function inputArgs(tools: MediaTools, file: string, demuxers: readonly string[], before: string[] = []): string[] {
  return [
    '-protocol_whitelist',
    'file',
    '-format_whitelist',
    demuxers.join(','),
    '-threads',
    String(tools.threads),
    ...before,
    '-i',
    `file:${path.resolve(file)}`,
  ];
}

// ---- ffprobe ----

export interface ProbeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  pix_fmt?: string;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  nb_frames?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
}

export interface Probe {
  format: { format_name?: string; duration?: string; size?: string; nb_streams?: number };
  streams: ProbeStream[];
  /** What ffprobe said on stderr (warnings; the reason a claimed size was refused, say). */
  stderr: string;
}

/** The largest ffprobe answer we read: a file with thousands of streams is refused by it. */
const PROBE_MAX_BYTES = 1024 * 1024;
export const PROBE_TIMEOUT_MS = 30_000;

/**
 * ffprobe's view of a file (format and streams), read by one of `demuxers`. Rejects with the
 * FfmpegError of the run, whose stderr says why the file could not be read.
 */
export async function probe(tools: MediaTools, file: string, demuxers: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Probe> {
  const { stdout, stderr } = await runTool(
    tools,
    tools.ffprobe,
    [
      '-hide_banner',
      '-loglevel',
      'warning',
      '-max_alloc',
      String(FFMPEG_MAX_ALLOC_BYTES),
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      demuxers.join(','),
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      `file:${path.resolve(file)}`,
    ],
    { timeoutMs: PROBE_TIMEOUT_MS, maxStdoutBytes: PROBE_MAX_BYTES, signal: options.signal },
  );
  let parsed: Partial<Probe>;
  try {
    parsed = JSON.parse(stdout.toString('utf8')) as Partial<Probe>;
  } catch {
    throw new FfmpegError('failed', 'ffprobe gave an answer that could not be read', stderr);
  }
  return { format: parsed.format ?? {}, streams: parsed.streams ?? [], stderr };
}

/** `30000/1001` → 29.97; anything unusable → 0. */
export function parseRate(rate: string | undefined): number {
  if (!rate) return 0;
  const [n, d] = rate.split('/').map(Number);
  const value = d === undefined ? n : n / d;
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/** A duration in seconds from ffprobe's text, or 0 when unknown. */
export function parseSeconds(value: string | undefined): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export function formatSeconds(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} minutes`;
  return `${Math.round(s / 3600)} hours`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

/** h:mm:ss or m:ss, for messages. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
