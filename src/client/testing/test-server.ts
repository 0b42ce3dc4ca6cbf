import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface Received {
  method: string;
  contentType: string | undefined;
  body: Buffer;
}

export interface RecordingServer {
  /** `http://127.0.0.1:<port>`, set once the server listens. */
  base: string;
  /** The requests of the current test, in order. */
  received: Received[];
  /** What the next requests get (a JSON `{ ok: true }` by default); reset before each test. */
  answer: { status: number; body?: string };
}

const read = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/**
 * A real HTTP server for the calling test file that records each request and answers as
 * `answer` says: started before the file's tests, cleared before each, closed after them.
 */
export function startRecordingServer(): RecordingServer {
  const state: RecordingServer = { base: '', received: [], answer: { status: 200 } };
  let server: Server;
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      state.received.push({ method: req.method!, contentType: req.headers['content-type'], body: await read(req) });
      res.writeHead(state.answer.status, { 'content-type': 'application/json' });
      res.end(state.answer.body ?? JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    state.received = [];
    state.answer = { status: 200 };
  });
  return state;
}
