import { UPLOAD_CHUNK_BYTES, UPLOAD_EXPIRY_MS, UPLOAD_METADATA, uploadIdFromUrl, type UploadPurpose, UPLOADS_PATH } from '@contract/files';
import * as React from 'react';
import { defaultOptions, DetailedError, Upload, type UploadOptions } from 'tus-js-client';

/**
 * Waits between retries after a network drop or a 5xx: the upload goes on by itself once the
 * network is back (and again on the browser's `online` event after these run out).
 */
export const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000];

/** Upload-Metadata key naming the form slot of an upload when it is not its purpose. */
const SLOT_METADATA = 'slot';

/** Speed is measured over this much recent time, so a stall shows at once and a burst does not mislead. */
const SPEED_WINDOW_MS = 5000;

export interface UploadFileInfo {
  name: string;
  size: number;
  type: string;
}

export type UploadState =
  | { status: 'idle' }
  | {
      status: 'uploading' | 'paused' | 'error' | 'done';
      file: UploadFileInfo;
      /** Bytes the server has (or is being sent, while uploading). */
      sent: number;
      total: number;
      /** Bytes per second over the last few seconds; null until measurable. */
      speed: number | null;
      /** Seconds left at the current speed; null when unknown. */
      secondsLeft: number | null;
      /** true when this upload continued one begun earlier (another page load). */
      resumed: boolean;
      error?: string;
      /** The finished upload's id (the last segment of its tus URL). */
      id?: string;
    };

export interface UploadControls {
  state: UploadState;
  /** The file being uploaded (lost on reload; choosing it again resumes). */
  file: File | null;
  /** The name of a file whose upload stopped on an earlier visit (page reload, closed tab): choosing it again resumes. */
  interrupted: string | null;
  /** Begins uploading a file, resuming an earlier unfinished upload of the same file if there is one. */
  start(file: File): void;
  pause(): void;
  resume(): void;
  /** After an error: tries again from where the server stopped. */
  retry(): void;
  /** Stops and forgets the upload (the server's unfinished copy is deleted). */
  cancel(): void;
}

/** The server's error shape inside a failed tus response, else a plain sentence. */
export function uploadErrorMessage(err: unknown): string {
  if (err instanceof DetailedError) {
    const res = err.originalResponse;
    const status = res?.getStatus() ?? 0;
    if (res) {
      try {
        const body = JSON.parse(res.getBody()) as { error?: { message?: unknown } };
        if (typeof body.error?.message === 'string' && body.error.message) return body.error.message;
      } catch {
        // Not JSON: fall through to the status.
      }
    }
    if (status === 0) return 'Network error: the upload could not reach the server. It goes on when you retry.';
    if (status === 401) return 'Your session has ended. Sign in again, then choose the file again to resume.';
    if (status === 413) return 'The file is too large.';
    if (status === 507) return 'The server has no room for this file.';
    if (status >= 500) return 'The server could not take the upload. Try again.';
    return `The upload was refused (${status}).`;
  }
  return err instanceof Error && err.message ? err.message : 'The upload failed.';
}

/** Network drops, timeouts, 5xx, 409/423 (offset race, lock) and 429 are worth retrying; other 4xx are final. */
export function shouldRetry(err: DetailedError): boolean {
  const status = err.originalResponse?.getStatus() ?? 0;
  return status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
}

/**
 * One resumable upload to the tus endpoint. A page reload loses the File, but tus-js-client keeps
 * each unfinished upload's URL in localStorage under the file's fingerprint: choosing the same file
 * again continues where the server stopped instead of starting over. `slot` tells apart several
 * slots of one purpose (the download and the preview media are both `download` uploads): each
 * resumes and reports only its own unfinished uploads.
 */
export function useUpload(purpose: UploadPurpose, slot: string = purpose): UploadControls {
  const [state, setState] = React.useState<UploadState>({ status: 'idle' });
  const [file, setFile] = React.useState<File | null>(null);
  const [interrupted, setInterrupted] = React.useState<string | null>(null);
  const upload = React.useRef<Upload | null>(null);
  const samples = React.useRef<{ t: number; bytes: number }[]>([]);
  // Bumped by start/cancel: callbacks of a replaced upload change nothing.
  const generation = React.useRef(0);

  const patch = React.useCallback((gen: number, next: (s: Exclude<UploadState, { status: 'idle' }>) => UploadState) => {
    if (gen !== generation.current) return;
    setState((s) => (s.status === 'idle' ? s : next(s)));
  }, []);

  const measure = (bytes: number, total: number) => {
    const now = performance.now();
    const list = samples.current;
    list.push({ t: now, bytes });
    while (list.length > 2 && now - list[0]!.t > SPEED_WINDOW_MS) list.shift();
    const first = list[0]!;
    const dt = (now - first.t) / 1000;
    const speed = dt >= 0.5 && bytes > first.bytes ? (bytes - first.bytes) / dt : null;
    return { speed, secondsLeft: speed ? Math.max(0, Math.ceil((total - bytes) / speed)) : null };
  };

  const begin = React.useCallback(
    (u: Upload, gen: number) => {
      samples.current = [];
      patch(gen, (s) => ({ ...s, status: 'uploading', error: undefined, speed: null, secondsLeft: null }));
      u.start();
    },
    [patch],
  );

  const start = React.useCallback(
    (file: File) => {
      void upload.current?.abort(false);
      const gen = ++generation.current;
      const info: UploadFileInfo = { name: file.name, size: file.size, type: file.type };
      setFile(file);
      setInterrupted(null);
      setState({ status: 'uploading', file: info, sent: 0, total: file.size, speed: null, secondsLeft: null, resumed: false });
      const options: UploadOptions = {
        endpoint: UPLOADS_PATH,
        chunkSize: UPLOAD_CHUNK_BYTES,
        retryDelays: RETRY_DELAYS_MS,
        onShouldRetry: (err) => shouldRetry(err),
        metadata: {
          [UPLOAD_METADATA.filename]: file.name,
          [UPLOAD_METADATA.filetype]: file.type || 'application/octet-stream',
          [UPLOAD_METADATA.purpose]: purpose,
          // Read by this hook only (the server ignores it): which slot an unfinished upload was for.
          ...(slot !== purpose ? { [SLOT_METADATA]: slot } : {}),
        },
        // One slot's unfinished upload is not the other's, even for the same file.
        fingerprint: (f: File) =>
          Promise.resolve(['rv-upload', slot, f.name, f.type, f.size, f.lastModified, window.location.origin].join('-')),
        removeFingerprintOnSuccess: true,
        onProgress: (sent, total) => patch(gen, (s) => ({ ...s, sent, total, ...measure(sent, total) })),
        onSuccess: () =>
          patch(gen, (s) => ({ ...s, status: 'done', sent: s.total, speed: null, secondsLeft: 0, id: (u.url && uploadIdFromUrl(u.url)) || undefined })),
        onError: (err) => patch(gen, (s) => ({ ...s, status: 'error', speed: null, secondsLeft: null, error: uploadErrorMessage(err) })),
      };
      const u = new Upload(file, options);
      upload.current = u;
      void u.findPreviousUploads().then(
        (previous) => {
          if (gen !== generation.current) return;
          const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
          if (latest) {
            u.resumeFromPreviousUpload(latest);
            patch(gen, (s) => ({ ...s, resumed: true }));
          }
          begin(u, gen);
        },
        () => begin(u, gen),
      );
    },
    [begin, patch, purpose, slot],
  );

  const pause = React.useCallback(() => {
    const gen = generation.current;
    void upload.current?.abort(false);
    patch(gen, (s) => (s.status === 'uploading' ? { ...s, status: 'paused', speed: null, secondsLeft: null } : s));
  }, [patch]);

  const resume = React.useCallback(() => {
    if (upload.current) begin(upload.current, generation.current);
  }, [begin]);

  const cancel = React.useCallback(() => {
    const u = upload.current;
    generation.current++;
    upload.current = null;
    setState({ status: 'idle' });
    setFile(null);
    // A finished upload stays (the server sweeps it if no resource takes it); an unfinished one is deleted.
    if (u?.url && state.status !== 'done') void u.abort(true).catch(() => undefined);
    else void u?.abort(false);
  }, [state.status]);

  // Back online after the retries ran out: go on by itself.
  React.useEffect(() => {
    if (state.status !== 'error') return;
    const again = () => resume();
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [state.status, resume]);

  React.useEffect(() => {
    let live = true;
    defaultOptions.urlStorage.findAllUploads().then(
      (all) => {
        const storage = defaultOptions.urlStorage;
        // The server has removed unfinished uploads this old: forget them here too.
        const fresh = all.filter((u) => {
          const stale = !(Date.now() - Date.parse(u.creationTime) < UPLOAD_EXPIRY_MS);
          if (stale) void storage.removeUpload(u.urlStorageKey);
          return !stale;
        });
        const mine = fresh
          .filter((u) => (u.metadata[SLOT_METADATA] ?? u.metadata[UPLOAD_METADATA.purpose]) === slot)
          .sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
        if (live) setInterrupted(mine?.metadata[UPLOAD_METADATA.filename] ?? null);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [slot]);

  // Leaving the form stops sending (the server keeps what it has; choosing the file again resumes).
  React.useEffect(() => () => void upload.current?.abort(false), []);

  return { state, file, interrupted, start, pause, resume, retry: resume, cancel };
}
