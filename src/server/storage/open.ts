import path from 'node:path';
import type { Config } from '../config';
import type { FileStore } from './file-store';
import { LocalFileStore } from './local';
import { S3FileStore } from './s3';

/** Folder of the local store under DATA_DIR. */
export const LOCAL_FILES_DIR = 'files';

/** The file store STORAGE names, and how to let it go when the app closes. */
export function openFileStore(config: Config): { files: FileStore; close(): void; localRoot?: string } {
  if (config.storage.kind === 's3') {
    const files = new S3FileStore(config.storage.s3);
    return { files, close: () => files.close() };
  }
  const localRoot = path.join(config.dataDir, LOCAL_FILES_DIR);
  return { files: new LocalFileStore(localRoot), close: () => {}, localRoot };
}
