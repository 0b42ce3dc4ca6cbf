import type { AuditEntry } from '@contract/audit';

/** How the Activity page names each action (an action without a label shows its name). */
export const ACTION_LABELS: Record<string, string> = {
  'resource.create': 'Created a resource',
  'resource.update': 'Edited a resource',
  'resource.trash': 'Deleted a resource',
  'resource.restore': 'Restored a resource',
  'resource.purge': 'Deleted a resource forever',
  'resource.bulk': 'Bulk action',
  'resource.publish': 'Published on schedule',
  'resource.preview_retry': 'Retried a preview',
  'catalogue.import': 'Imported a row',
  'announcement.create': 'Created an announcement',
  'announcement.update': 'Edited an announcement',
  'announcement.delete': 'Deleted an announcement',
  'admin.create': 'Added an admin',
  'admin.delete': 'Removed an admin',
  'settings.save': 'Saved the settings',
  'settings.restore': 'Restored settings',
  'upload.create': 'Started an upload',
  'upload.cancel': 'Cancelled an upload',
  'auth.login': 'Signed in',
  'auth.login_failed': 'Failed sign-in',
  'auth.logout': 'Signed out',
  'auth.password_change': 'Changed their password',
  'admin.sessions_end': "Ended an admin's sessions",
  'admin.password_reset': 'Reset a password',
  'session.end': 'Ended a session',
  'session.end_others': 'Signed out other sessions',
  'totp.enable': 'Turned on two-step sign-in',
  'totp.disable': 'Turned off two-step sign-in',
  'totp.recovery_codes': 'Made new recovery codes',
  'totp.reset': 'Reset two-step sign-in',
  'two_factor.policy': 'Changed the two-step policy',
  'passkey.add': 'Added a passkey',
  'passkey.rename': 'Renamed a passkey',
  'passkey.remove': 'Removed a passkey',
};

export const actionLabel = (action: string) => ACTION_LABELS[action] ?? action;

/** Who did it: the admin's name then, or what stands for nobody. */
export function actorLabel(e: AuditEntry): string {
  if (e.actor_username) return e.actor_username;
  if (e.action === 'auth.login_failed') return 'Not signed in';
  return 'System';
}

const TARGET_LABELS: Record<string, string> = { resource: 'Resource', announcement: 'Announcement', admin: 'Admin', settings: 'Settings version', upload: 'Upload', session: 'Session', passkey: 'Passkey', policy: 'Policy' };

export function targetLabel(e: AuditEntry): string | null {
  if (!e.target_type) return null;
  const name = TARGET_LABELS[e.target_type] ?? e.target_type;
  return e.target_id ? `${name} ${e.target_id}` : name;
}

const VALUE_SHOWN = 160;

/** A recorded value in one short line. */
export function showValue(v: unknown): string {
  const s = v === null || v === undefined ? '—' : typeof v === 'string' ? v || '(empty)' : JSON.stringify(v);
  return s.length > VALUE_SHOWN ? `${s.slice(0, VALUE_SHOWN)}…` : s;
}

/** The changed fields of an entry: field, before, after (either may be absent). */
export function changedRows(changes: unknown): { field: string; before?: unknown; after?: unknown }[] {
  if (!changes || typeof changes !== 'object') return [];
  const { before, after, ...rest } = changes as { before?: Record<string, unknown>; after?: Record<string, unknown> };
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const rows: { field: string; before?: unknown; after?: unknown }[] = [...fields].map((field) => ({
    field,
    ...(before && field in before ? { before: before[field] } : {}),
    ...(after && field in after ? { after: after[field] } : {}),
  }));
  for (const [field, value] of Object.entries(rest)) rows.unshift({ field, after: value });
  return rows;
}
