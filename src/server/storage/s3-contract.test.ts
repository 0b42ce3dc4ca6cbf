import { describeFileStore } from '../testing/file-store-contract';
import { S3FileStore } from './s3';
import { S3_MIN_PART_BYTES, startS3TestServer } from '../testing/s3-test-server';

// The same contract as the local disk, against an S3-compatible server started here (s3rver).
describeFileStore('S3 (s3rver)', async () => {
  const s3 = await startS3TestServer();
  const store = new S3FileStore(
    { bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, forcePathStyle: true, ...s3.credentials },
    { partBytes: S3_MIN_PART_BYTES },
  );
  return {
    store,
    close: async () => {
      store.close();
      await s3.stop();
    },
  };
});
