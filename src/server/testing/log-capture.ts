import fs from 'node:fs';
import { vi } from 'vitest';

/**
 * Everything the logger writes while the returned `restore` is not yet called: pino writes through
 * fs.write / fs.writeSync, which are replaced by a capture that swallows the output.
 */
export function captureLogWrites(): { text(): string; restore(): void } {
  const written: string[] = [];
  const capture = (buf: unknown) => written.push(Buffer.isBuffer(buf) ? buf.toString('utf8') : String(buf));
  const w = vi.spyOn(fs, 'write').mockImplementation(((_fd: number, buf: unknown, ...rest: unknown[]) => {
    capture(buf);
    const cb = rest.find((x) => typeof x === 'function') as ((e: null, n: number) => void) | undefined;
    cb?.(null, Buffer.byteLength(String(buf)));
  }) as never);
  const ws = vi.spyOn(fs, 'writeSync').mockImplementation(((_fd: number, buf: unknown) => {
    capture(buf);
    return Buffer.byteLength(String(buf));
  }) as never);
  return {
    text: () => written.join(''),
    restore() {
      w.mockRestore();
      ws.mockRestore();
    },
  };
}
