import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Tables } from '../../db/schema';
import { nowIso } from '../../time';
import { auditDb } from './queries';

/**
 * Writing the audit log (docs/decisions/420-the-audit-log.md). Every admin write calls recordAudit
 * with the transaction of its change: the entry commits with the change or not at all. An entry is
 * bounded (decision 421): a string is kept whole up to STRING_MAX characters, the entry's changes up
 * to CHANGES_MAX bytes of JSON, longer values cut with a visible marker; a secret is never stored
 * (callers pass no secret, and keys that name one are dropped here as well).
 */

/** Who did it and from where: an admin's request, a failed sign-in (no admin) or the system. */
export interface AuditActor {
  adminId: number | null;
  username: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface AuditInput {
  action: string;
  target?: { type: string; id: number | string | null };
  /** `{ before, after }` of the changed fields (see changedFields), or what else describes the action. */
  changes?: unknown;
}

/** A string longer than this is cut (a 5,000-character description is kept whole). */
export const STRING_MAX = 20_000;
/** The most an entry's changes may take, as JSON. */
export const CHANGES_MAX = 64 * 1024;
const USER_AGENT_MAX = 512;

/** Keys whose values are never recorded, wherever they appear in the changes. */
const SECRET_KEY = /password|secret|token|recovery|totp|otp_?code|challenge|credential|cookie|private_key|hash$/i;

/** The scheduled work of every instance (publishing, the trash's purge). */
export const SYSTEM_ACTOR: AuditActor = { adminId: null, username: null, ip: null, userAgent: null };

/** The request's admin (null before sign-in) and where the request came from. */
export function auditActor(request: FastifyRequest): AuditActor {
  const ua = request.headers['user-agent'];
  return {
    adminId: request.admin?.id ?? null,
    username: request.admin?.username ?? null,
    ip: request.ip ?? null,
    userAgent: typeof ua === 'string' ? ua.slice(0, USER_AGENT_MAX) : null,
  };
}

/** The request's origin, naming `admin` as the actor (null: nobody signed in), for routes the admin guard does not cover (sign-in, one's own sessions). */
export function auditActorAs(request: FastifyRequest, admin: { id: number; username: string } | null): AuditActor {
  return { ...auditActor(request), adminId: admin?.id ?? null, username: admin?.username ?? null };
}

/** A sign-in route's own entry, a transaction of its own (decision 420): `admin` null when nobody is known. */
export type RecordSignIn = (request: FastifyRequest, admin: { id: number; username: string } | null, entry: AuditInput) => Promise<void>;

/** Appends one entry, in `trx`: the transaction of the change it records. */
export async function recordAudit(trx: Transaction<Tables>, actor: AuditActor, entry: AuditInput): Promise<void> {
  await recordAudits(trx, actor, [entry]);
}

/** Rows per INSERT of recordAudits: 10 columns each, well inside SQLite's limit on bound parameters. */
const INSERT_CHUNK = 500;

/** Appends many entries by one actor in `trx`, a few statements for all (a batch's changes: the import, scheduled publishing). */
export async function recordAudits(trx: Transaction<Tables>, actor: AuditActor, entries: readonly AuditInput[]): Promise<void> {
  const now = nowIso();
  const rows = entries.map((entry) => ({
    created_at: now,
    actor_id: actor.adminId,
    actor_username: actor.username,
    action: entry.action,
    target_type: entry.target?.type ?? null,
    target_id: entry.target?.id == null ? null : String(entry.target.id),
    changes: entry.changes === undefined ? null : boundedJson(entry.changes),
    ip: actor.ip,
    user_agent: actor.userAgent,
  }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await auditDb(trx).insertInto('audit_log').values(rows.slice(i, i + INSERT_CHUNK)).execute();
}

/** The fields whose values differ, as `{ before, after }`; undefined when none does. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } | undefined {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
    b[key] = before[key] ?? null;
    a[key] = after[key] ?? null;
  }
  return Object.keys(a).length === 0 ? undefined : { before: b, after: a };
}

const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max)}… [cut: ${s.length} characters in all]`);

/** JSON of `value` without secrets, strings cut to `max`. */
function serialize(value: unknown, max: number): string {
  return JSON.stringify(value, (key, v: unknown) => {
    if (key !== '' && SECRET_KEY.test(key)) return undefined;
    return typeof v === 'string' ? cut(v, max) : v;
  });
}

/** The changes as stored: within CHANGES_MAX, cutting long strings shorter until they fit. */
export function boundedJson(value: unknown): string {
  for (let max = STRING_MAX; max >= 64; max = Math.floor(max / 4)) {
    const json = serialize(value, max);
    if (Buffer.byteLength(json) <= CHANGES_MAX) return json;
  }
  // Too many fields to fit even cut short: what was there, by name.
  const keys = value && typeof value === 'object' ? Object.keys(value).slice(0, 100) : [];
  return JSON.stringify({ cut: `too large to keep (over ${CHANGES_MAX} bytes)`, keys });
}
