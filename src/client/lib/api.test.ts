import { describe, expect, it } from 'vitest';
import { api, ApiError } from './api';
import { startRecordingServer } from '../testing/test-server';

/** A real HTTP server that records each request and answers as `srv.answer` says. */
const srv = startRecordingServer();

describe('api() request bodies', () => {
  it('sends a plain object as JSON with the JSON content type', async () => {
    await api(`${srv.base}/x`, { method: 'POST', body: { title: 'Pack', tags: ['a'] } });
    expect(srv.received).toHaveLength(1);
    expect(srv.received[0].contentType).toBe('application/json');
    expect(JSON.parse(srv.received[0].body.toString())).toEqual({ title: 'Pack', tags: ['a'] });
  });

  it('sends FormData as multipart with the boundary fetch chose, not as JSON', async () => {
    const form = new FormData();
    form.append('title', 'Pack');
    form.append('file', new Blob([new Uint8Array([0, 1, 2, 255])], { type: 'application/zip' }), 'pack.zip');
    await api(`${srv.base}/upload`, { method: 'POST', body: form });
    const { contentType, body } = srv.received[0];
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(contentType ?? '')?.[1];
    expect(boundary, contentType).toBeTruthy();
    const text = body.toString('latin1');
    expect(text).toContain(`--${boundary}`);
    expect(text).toContain('name="title"\r\n\r\nPack\r\n');
    expect(text).toContain('filename="pack.zip"');
    expect(text).toContain('Content-Type: application/zip\r\n\r\n\u0000\u0001\u0002\u00ff\r\n');
  });

  it('sends a Blob as its bytes with its own type, or application/octet-stream when it has none', async () => {
    const bytes = new Uint8Array([137, 80, 78, 71, 0, 255]);
    await api(`${srv.base}/b`, { method: 'POST', body: new Blob([bytes], { type: 'image/png' }) });
    await api(`${srv.base}/b`, { method: 'PATCH', body: new Blob([bytes]) });
    expect(srv.received.map((r) => r.contentType)).toEqual(['image/png', 'application/octet-stream']);
    expect(srv.received.map((r) => [...r.body])).toEqual([[...bytes], [...bytes]]);
    expect(srv.received.map((r) => r.method)).toEqual(['POST', 'PATCH']);
  });

  it('sends an ArrayBuffer or a typed array as application/octet-stream bytes', async () => {
    const bytes = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
    await api(`${srv.base}/a`, { method: 'POST', body: bytes.buffer });
    // A view on part of a buffer sends only its own bytes.
    await api(`${srv.base}/a`, { method: 'POST', body: new Uint8Array(bytes.buffer, 2, 3) });
    expect(srv.received.map((r) => r.contentType)).toEqual(['application/octet-stream', 'application/octet-stream']);
    expect(srv.received.map((r) => [...r.body])).toEqual([[1, 2, 3, 4, 5, 6, 7, 8], [3, 4, 5]]);
  });

  it('sends no body and no content type without a body', async () => {
    await api(`${srv.base}/g`);
    expect(srv.received[0]).toEqual({ method: 'GET', contentType: undefined, body: Buffer.alloc(0) });
  });

  it('a failed FormData or binary request throws the same ApiError as a JSON one', async () => {
    srv.answer = { status: 400, body: JSON.stringify({ error: { code: 'VALIDATION', message: 'File is too large', fields: { file: 'Too large' } } }) };
    const form = new FormData();
    form.append('file', new Blob(['x']));
    for (const body of [form, new Blob(['x']), new Uint8Array([1]), { a: 1 }]) {
      const err = await api(`${srv.base}/f`, { method: 'POST', body }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 400, code: 'VALIDATION', message: 'File is too large', fields: { file: 'Too large' } });
    }
  });
});
