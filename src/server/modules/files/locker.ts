import { randomBytes } from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import type { Database } from '../../db/connection';

/** A held lock is renewed this often; a lease not renewed for LEASE_MS (its instance died) is free. */
export const LOCK_RENEW_MS = 1_000;
export const LOCK_LEASE_MS = 15_000;
/** How long a request waits for a lock before giving up (tus answers 500 "failed to acquire lock"). */
export const LOCK_WAIT_MS = 30_000;
const POLL_MS = 100;

const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();

/**
 * The tus locker for several instances on one database: a lock is a row in upload_locks with a
 * lease its holder renews every second. A request that wants a held lock sets
 * `release_requested`; the holder sees it at its next renewal and is asked to let go (tus then
 * ends the old request, e.g. a PATCH whose client lost its network and came back), so a resumed
 * upload never waits for a half-open connection to time out. A holder that died stops renewing and
 * its lease runs out. Times are ISO text as everywhere, compared as strings.
 */
export class DbLocker implements Locker {
  /**
   * Locks this instance let go of whose row the database refused to delete (a full disk): upload
   * id → owner. The next request for the upload here takes the row over at once instead of
   * waiting for its lease to run out (docs/decisions/322-upload-locks-on-a-full-disk.md).
   */
  private readonly letGo = new Map<string, string>();

  constructor(private readonly database: Database) {}

  newLock(id: string): Lock {
    return new DbLock(this.database, id, this.letGo);
  }
}

class DbLock implements Lock {
  private readonly owner = randomBytes(12).toString('hex');
  private renewal: NodeJS.Timeout | undefined;

  constructor(
    private readonly database: Database,
    private readonly id: string,
    private readonly letGo: Map<string, string>,
  ) {}

  private async tryAcquire(): Promise<boolean> {
    const { db } = this.database;
    const now = new Date().toISOString();
    const abandoned = this.letGo.get(this.id);
    // A lease that ran out, or one this instance let go of, is taken over; otherwise the insert finds the row and does nothing.
    await db
      .deleteFrom('upload_locks')
      .where('id', '=', this.id)
      .where((eb) => (abandoned === undefined ? eb('expires_at', '<', now) : eb.or([eb('expires_at', '<', now), eb('owner', '=', abandoned)])))
      .execute();
    if (abandoned !== undefined && this.letGo.get(this.id) === abandoned) this.letGo.delete(this.id);
    const inserted = await db
      .insertInto('upload_locks')
      .values({ id: this.id, owner: this.owner, expires_at: isoIn(LOCK_LEASE_MS), release_requested: 0 })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('owner')
      .executeTakeFirst();
    return inserted?.owner === this.owner;
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const giveUpAt = Date.now() + LOCK_WAIT_MS;
    let asked = false;
    while (!(await this.tryAcquire())) {
      if (signal.aborted || Date.now() > giveUpAt) throw ERRORS.ERR_LOCK_TIMEOUT;
      if (!asked) {
        asked = true;
        await this.database.db.updateTable('upload_locks').set({ release_requested: 1 }).where('id', '=', this.id).execute();
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    let released = false;
    this.renewal = setInterval(() => {
      void this.database.db
        .updateTable('upload_locks')
        .set({ expires_at: isoIn(LOCK_LEASE_MS) })
        .where('id', '=', this.id)
        .where('owner', '=', this.owner)
        .returning('release_requested')
        .executeTakeFirst()
        .then((row) => {
          if (row && Number(row.release_requested) === 1 && !released) {
            released = true;
            void requestRelease();
          }
        })
        .catch(() => {
          /* the next renewal tries again; a lease that runs out frees the lock */
        });
    }, LOCK_RENEW_MS);
    this.renewal.unref();
  }

  /**
   * Never fails: the request is over either way, and an error here would replace its answer. When
   * the database refuses the delete, the lock is let go of in this instance (the next request
   * here takes the row over) and the delete is tried again until the lease would have run out
   * (then other instances take it over anyway).
   */
  async unlock(): Promise<void> {
    clearInterval(this.renewal);
    const leaseEnd = Date.now() + LOCK_LEASE_MS;
    const release = () => this.database.db.deleteFrom('upload_locks').where('id', '=', this.id).where('owner', '=', this.owner).execute();
    try {
      await release();
    } catch {
      this.letGo.set(this.id, this.owner);
      const retry = () => {
        if (this.letGo.get(this.id) !== this.owner || Date.now() > leaseEnd) return;
        release().then(
          () => this.letGo.get(this.id) === this.owner && this.letGo.delete(this.id),
          () => setTimeout(retry, LOCK_RENEW_MS).unref(),
        );
      };
      setTimeout(retry, LOCK_RENEW_MS).unref();
    }
  }
}
