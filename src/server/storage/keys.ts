/**
 * The names things get in the file store: one place, so a sweep, a save and a store agree on them.
 * Every key is made here by the server from ids and content hashes, never taken from a client.
 */

export const UPLOAD_KEY_PREFIX = 'uploads/';
/** Where a finished upload's bytes are in the file store. */
export const uploadKey = (id: string) => `${UPLOAD_KEY_PREFIX}${id}`;
/** The objects a tus store keeps beside an upload's bytes (local `.json`; S3 `.info`, `.part`). */
export const uploadCompanionKeys = (id: string) => ['json', 'info', 'part'].map((ext) => `${UPLOAD_KEY_PREFIX}${id}.${ext}`);
/**
 * The names of the thumbnail variants a save wrote under media/ for this upload (JSON), written
 * before them: a save that then fails leaves variants no row names, and this is how the sweep
 * tells them from previews and other derived files that share media/. Kept until the sweep.
 */
export const uploadVariantsKey = (id: string) => `${UPLOAD_KEY_PREFIX}${id}.variants`;

/**
 * Everything the server derives from uploads (thumbnail variants, preview videos, posters,
 * storyboards, sounds, LUT tables, fonts) is stored under this prefix by its content's name
 * (`<32 hex of its SHA-256>.<ext>`, see src/server/media/derived.ts) and served at MEDIA_PATH
 * (src/contract/files.ts).
 */
export const MEDIA_KEY_PREFIX = 'media/';

/** The store key of a derived file named `<hash>.<ext>`. */
export function mediaKey(fileName: string): string {
  return `${MEDIA_KEY_PREFIX}${fileName}`;
}
