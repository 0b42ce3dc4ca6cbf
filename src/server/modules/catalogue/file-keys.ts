/**
 * The key the export prints for a hosted file, and an import row may name: its files id and the
 * start of its SHA-256, so a mistyped id does not name another file. Stable while the file lives
 * (docs/decisions/407-hosted-files-by-key.md).
 */
const KEY = /^f([1-9][0-9]{0,9})-([0-9a-f]{16})$/;

export function fileKey(id: number, sha256: string): string {
  return `f${id}-${sha256.slice(0, 16)}`;
}

/** The id and hash prefix a key names; null for anything that is not a key. */
export function parseFileKey(key: string): { id: number; sha: string } | null {
  const m = KEY.exec(key);
  if (!m) return null;
  const id = Number(m[1]);
  return id <= 2_147_483_647 ? { id, sha: m[2] } : null;
}
