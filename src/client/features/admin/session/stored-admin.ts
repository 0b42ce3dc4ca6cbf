import type { AdminProfile } from '@contract/auth';
import { STORAGE_ADMIN } from '@contract/constants';
import { storage } from '@/lib/storage';

/**
 * The public profile kept in local storage for instant UI. The server is the authority: the
 * session cookie is httpOnly, and this copy is confirmed with GET /api/auth/me at start.
 */
export function readStoredAdmin(): AdminProfile | null {
  const raw = storage.get(STORAGE_ADMIN);
  if (raw === null) return null;
  const parsed = parseAdmin(raw);
  if (!parsed) {
    // Spec: a corrupt value is removed and reported.
    console.error('Ignoring a corrupt stored admin session');
    storage.remove(STORAGE_ADMIN);
  }
  return parsed;
}

function parseAdmin(raw: string): AdminProfile | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  // Spec: accepted only with id, username and created_at.
  if (typeof v.id !== 'number' || !Number.isInteger(v.id)) return null;
  if (typeof v.username !== 'string' || v.username === '') return null;
  if (typeof v.created_at !== 'string' || v.created_at === '') return null;
  return { id: v.id, username: v.username, created_at: v.created_at, is_super_user: v.is_super_user === true };
}

/** Only the four public fields are written, whatever else the object carries. */
export function storeAdmin(admin: AdminProfile) {
  const { id, username, is_super_user, created_at } = admin;
  storage.set(STORAGE_ADMIN, JSON.stringify({ id, username, is_super_user, created_at }));
}

export function clearStoredAdmin() {
  storage.remove(STORAGE_ADMIN);
}
