import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, GetObjectCommand, PutObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startS3TestServer, type S3TestServer } from './s3-test-server';

// The fs-extra that s3rver's store writes its files with (looked up on each write).
const s3rverRequire = createRequire(createRequire(import.meta.url).resolve('s3rver'));
const fsExtra = s3rverRequire('fs-extra') as { createWriteStream: (file: string, options?: unknown) => NodeJS.WritableStream };

let s3: S3TestServer;
let client: S3Client;
let createWriteStream: typeof fsExtra.createWriteStream;
beforeAll(async () => {
  s3 = await startS3TestServer();
  client = new S3Client({ endpoint: s3.endpoint, region: s3.region, credentials: s3.credentials, forcePathStyle: true });
  // A slow disk: every chunk reaches the file 30 ms after s3rver has hashed it.
  createWriteStream = fsExtra.createWriteStream;
  fsExtra.createWriteStream = (file, options) => {
    const real = createWriteStream(file, options);
    return new Writable({
      write(chunk: Buffer, _encoding, done) {
        setTimeout(() => real.write(chunk, done), 30);
      },
      final(done) {
        real.end(done);
      },
    });
  };
});
afterAll(async () => {
  fsExtra.createWriteStream = createWriteStream;
  client.destroy();
  await s3.stop();
});

const read = async (Key: string) =>
  Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key }))).Body!.transformToByteArray());

it('gives back every byte of an object it has just acknowledged, on a slow disk (S3 reads after write)', async () => {
  const body = randomBytes(200_000);
  await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'put', Body: body }));
  expect((await read('put')).equals(body)).toBe(true);
});

it('completes a multipart upload from every byte of its parts, on a slow disk', async () => {
  const body = randomBytes(120_000);
  const Key = 'multipart';
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key }));
  const { ETag } = await client.send(new UploadPartCommand({ Bucket: s3.bucket, Key, UploadId, PartNumber: 1, Body: body }));
  await client.send(new CompleteMultipartUploadCommand({ Bucket: s3.bucket, Key, UploadId, MultipartUpload: { Parts: [{ ETag, PartNumber: 1 }] } }));
  expect((await read(Key)).equals(body)).toBe(true);
});
