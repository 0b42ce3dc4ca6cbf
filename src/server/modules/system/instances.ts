import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import { INSTANCE_SEEN_SECONDS } from '../../../contract/system';
import type { Tables } from '../../db/schema';

/** This process, as the System page lists it. */
export interface ThisInstance {
  id: string;
  hostname: string;
  pid: number;
  version: string;
  startedAt: string;
}

export function thisInstance(version: string): ThisInstance {
  return { id: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, hostname: os.hostname(), pid: process.pid, version, startedAt: new Date().toISOString() };
}

/** How often an instance beats. */
export const BEAT_INTERVAL_MS = 20_000;
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

/** Records that `me` is running now, and forgets instances silent for a day. */
export async function beat(db: Kysely<Tables>, me: ThisInstance, now = new Date()): Promise<void> {
  const seen = now.toISOString();
  await db
    .insertInto('instances')
    .values({ id: me.id, hostname: me.hostname, pid: me.pid, version: me.version, started_at: me.startedAt, seen_at: seen })
    .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: seen }))
    .execute();
  await db
    .deleteFrom('instances')
    .where('seen_at', '<', new Date(now.getTime() - FORGET_AFTER_MS).toISOString())
    .execute();
}

/** Instances that beat in the last INSTANCE_SEEN_SECONDS, newest start first. */
export async function runningInstances(db: Kysely<Tables>, now = new Date()) {
  return db
    .selectFrom('instances')
    .selectAll()
    .where('seen_at', '>=', new Date(now.getTime() - INSTANCE_SEEN_SECONDS * 1000).toISOString())
    .orderBy('started_at', 'desc')
    .execute();
}

/** Called when an instance stops: it leaves the list at once. */
export async function forget(db: Kysely<Tables>, me: ThisInstance): Promise<void> {
  await db.deleteFrom('instances').where('id', '=', me.id).execute();
}
