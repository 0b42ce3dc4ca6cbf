import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Upload } from 'tus-js-client';
import { UPLOAD_CHUNK_BYTES, UPLOADS_PATH } from '../../contract/files';
import type { Config } from '../config';
import { startS3TestServer, type S3TestServer } from './s3-test-server';
import { createTestApp, type TestApp, type TestDatabaseKind } from './test-utils';
import { createAndSignIn, type SignedIn } from './auth-helpers';

/** Test-only: an app listening on loopback with a signed-in admin, on the local disk or an S3 test server. */
export type StoreKind = 'local' | 's3';
export const STORES: StoreKind[] = ['local', 's3'];
/**
 * The two ways the site is deployed: SQLite with files on its disk (the default), PostgreSQL with a
 * bucket (scaling out). Tests whose subject is the database's or the store's side, not how a
 * particular pair meets, run on these two (each database and each store once) rather than on all
 * four pairs: the media ones derive real previews, and the four pairs cost the suite about 40 s of
 * CPU (owners.test.ts alone 41 s). hosted files (files.test.ts) keep all four.
 */
export const DEPLOYMENTS = [
  ['sqlite', 'local'],
  ['postgres', 's3'],
] as const satisfies readonly (readonly [TestDatabaseKind, StoreKind])[];

export interface FilesTestApp extends TestApp {
  base: string;
  admin: SignedIn;
  /** Headers of an admin write from the site's own page. */
  headers: Record<string, string>;
  s3?: S3TestServer;
  dataDir: string;
}

let admins = 0;

export async function startFilesApp(kind: TestDatabaseKind, store: StoreKind, overrides: Partial<Config> = {}): Promise<FilesTestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rv-files-'));
  const s3 = store === 's3' ? await startS3TestServer() : undefined;
  const storage: Config['storage'] = s3
    ? { kind: 's3', s3: { bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, forcePathStyle: true, ...s3.credentials } }
    : { kind: 'local' };
  const t = await createTestApp(kind, { dataDir, storage, ...overrides });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const admin = await createAndSignIn(t.app, t.database, `uploader_${admins++}`);
  return {
    ...t,
    base,
    admin,
    headers: { cookie: admin.cookie, origin: base },
    s3,
    dataDir,
    async close() {
      await t.close();
      await s3?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
export const randomData = (bytes: number) => randomBytes(bytes);

/**
 * Uploads `data` with tus-js-client as the admin form does. `stopAfterBytes`: aborts once that
 * much is accepted (an interrupted upload), resolving with completed false.
 */
export function tusUpload(
  app: FilesTestApp,
  data: Buffer,
  options: { name?: string; purpose?: 'download' | 'thumbnail'; uploadUrl?: string; stopAfterBytes?: number; chunkSize?: number } = {},
): Promise<{ url: string; id: string; completed: boolean; firstOffset: number }> {
  return new Promise((resolve, reject) => {
    let firstOffset = -1;
    const upload: Upload = new Upload(data, {
      endpoint: `${app.base}${UPLOADS_PATH}`,
      uploadUrl: options.uploadUrl ?? null,
      headers: app.headers,
      chunkSize: options.chunkSize ?? UPLOAD_CHUNK_BYTES,
      retryDelays: null,
      storeFingerprintForResuming: false,
      metadata: { filename: options.name ?? 'pack.zip', filetype: 'application/zip', purpose: options.purpose ?? 'download' },
      onProgress: (sent) => {
        if (firstOffset < 0) firstOffset = sent;
      },
      onChunkComplete: (_chunk, accepted) => {
        if (options.stopAfterBytes !== undefined && accepted >= options.stopAfterBytes && accepted < data.length) {
          void upload.abort().then(() => resolve({ url: upload.url!, id: idOf(upload.url!), completed: false, firstOffset }));
        }
      },
      onSuccess: () => resolve({ url: upload.url!, id: idOf(upload.url!), completed: true, firstOffset }),
      onError: reject,
    });
    upload.start();
  });
}

const idOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
