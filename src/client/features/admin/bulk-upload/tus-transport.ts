import type { CategoryValue } from '@contract/categories';
import { titleFromFileName } from '@contract/file-title';
import { UPLOAD_CHUNK_BYTES, UPLOAD_METADATA, uploadIdFromUrl, UPLOADS_PATH } from '@contract/files';
import { ApiError } from '@/lib/api';
import { Upload } from 'tus-js-client';
import { createResource } from '../api/create-resource';
import { RETRY_DELAYS_MS, shouldRetry, uploadErrorMessage } from '../lib/use-upload';
import { selfPreviewKind } from './preview-kind';
import type { BulkTransport, UploadTask } from './upload-queue';

/**
 * The real transport: a tus upload per file (resumable: choosing the same file again after a
 * reload continues it, as the form's uploads do), then POST /api/admin/resources making a draft
 * titled from the file name, its download the file, and its preview the file itself when its kind
 * fits the category (docs/decisions/409-bulk-upload-drafts.md).
 */
export function tusTransport(category: CategoryValue): BulkTransport {
  return {
    upload(file, onProgress): UploadTask {
      let resolve!: (id: string) => void;
      let reject!: (error: unknown) => void;
      const done = new Promise<string>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      const u: Upload = new Upload(file, {
        endpoint: UPLOADS_PATH,
        chunkSize: UPLOAD_CHUNK_BYTES,
        retryDelays: RETRY_DELAYS_MS,
        onShouldRetry: (err) => shouldRetry(err),
        metadata: {
          [UPLOAD_METADATA.filename]: file.name,
          [UPLOAD_METADATA.filetype]: file.type || 'application/octet-stream',
          [UPLOAD_METADATA.purpose]: 'download',
          slot: 'bulk',
        },
        fingerprint: (f: File) =>
          Promise.resolve(['rv-upload', 'bulk', f.webkitRelativePath || f.name, f.type, f.size, f.lastModified, window.location.origin].join('-')),
        removeFingerprintOnSuccess: true,
        onProgress,
        onSuccess: () => {
          const id = u.url && uploadIdFromUrl(u.url);
          if (id) resolve(id);
          else reject(new Error('The server did not name the upload.'));
        },
        onError: reject,
      });
      const begin = () => {
        void u.findPreviousUploads().then(
          (previous) => {
            const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
            if (latest) u.resumeFromPreviousUpload(latest);
            u.start();
          },
          () => u.start(),
        );
      };
      begin();
      return {
        done,
        pause: () => void u.abort(false),
        resume: () => u.start(),
        cancel: () => void u.abort(true).catch(() => undefined),
      };
    },

    async create(file, uploadId) {
      const kind = selfPreviewKind(category, file);
      const created = await createResource({
        title: titleFromFileName(file.name),
        // Required of every resource: the file it came from, until an admin writes one.
        description: file.name,
        category,
        status: 'draft',
        download_upload_id: uploadId,
        ...(kind ? { preview_source: { kind, from_download: true as const } } : {}),
      });
      return { id: created.id, title: created.title };
    },

    message(error) {
      if (error instanceof ApiError) return error.fields ? Object.values(error.fields)[0] ?? error.message : error.message;
      return uploadErrorMessage(error);
    },
  };
}
