import { DetailedError, type HttpRequest, type HttpResponse } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { formatTimeLeft } from './format';
import { uploadErrorMessage } from './use-upload';

const request = { getHeader: () => undefined, getMethod: () => 'PATCH', getURL: () => '/api/admin/uploads/x' } as unknown as HttpRequest;
const response = (status: number, body: string) => ({ getStatus: () => status, getBody: () => body }) as unknown as HttpResponse;
// The typings leave out DetailedError's constructor (message, causing error, request, response).
const Detailed = DetailedError as unknown as new (message: string, cause: Error | null, req: HttpRequest, res: HttpResponse | null) => DetailedError;
const failed = (status: number | null, body = '') =>
  new Detailed('tus: failed to upload chunk', null, request, status === null ? null : response(status, body));

describe('uploadErrorMessage', () => {
  it('shows the message of the API error shape a tus response carries', () => {
    const body = JSON.stringify({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'The file is larger than the 5 GiB limit' } });
    expect(uploadErrorMessage(failed(413, body))).toBe('The file is larger than the 5 GiB limit');
  });

  it('says what happened in words when there is no error body, never the request dump', () => {
    expect(uploadErrorMessage(failed(null))).toMatch(/^Network error/);
    expect(uploadErrorMessage(failed(507, 'disk full'))).toBe('The server has no room for this file.');
    expect(uploadErrorMessage(failed(502, '<html>Bad gateway</html>'))).toBe('The server could not take the upload. Try again.');
    expect(uploadErrorMessage(failed(418))).toBe('The upload was refused (418).');
    expect(uploadErrorMessage(new Error('tus: cannot fetch `file.name`'))).toBe('tus: cannot fetch `file.name`');
  });
});

describe('formatTimeLeft', () => {
  it('counts seconds, then minutes and seconds, then hours and minutes', () => {
    expect(formatTimeLeft(0)).toBe('0 s left');
    expect(formatTimeLeft(59)).toBe('59 s left');
    expect(formatTimeLeft(75)).toBe('1 min 15 s left');
    expect(formatTimeLeft(3 * 3600 + 120)).toBe('3 h 2 min left');
  });
});
