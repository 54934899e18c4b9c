import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../store/database';

/**
 * One puller per partner account. The upstream's `sendNewData: yes` cursor is state on its side, so
 * two pullers would steal each other's deltas: whoever holds the account's lease row (unexpired)
 * pulls, the others wait and take over once it expired.
 *
 * Fencing: every term has an epoch, one more than the last. A write of the puller names its term
 * (`Fence`) and `checkFence` runs in the write's own transaction: a leader that was paused past its
 * expiry (a long GC, a stopped VM) cannot write once it lost the lease. The check holds the row
 * only against its deletion (`FOR KEY SHARE`), so a renewal or a takeover never waits for writes
 * under way: behind a queue of long writes, a renewal would come after the expiry and start a new
 * term (every load pulled in full again). A write that passed its check and commits after a
 * takeover stores what it took from the service; merges are order-free, so nothing is lost.
 */
export interface Fence {
  account: string;
  holder: string;
  epoch: string;
}

export interface LeaseOptions {
  account: string;
  /** This instance, unique among those sharing the store; a new random one by default. */
  holder?: string;
  /** How long a term lasts without a renewal (LEASE_SECONDS). */
  seconds: number;
  /**
   * The clock that expiry is reckoned by, for tests that control time; by default the database's,
   * so that instances whose clocks differ agree on when a lease expired.
   */
  now?: () => number;
}

/** What `acquire` found: held (with the term) or not; `newTerm` when the epoch is not the last one held. */
export type LeaseState =
  | { held: true; fence: Fence; expiresAt: Date; newTerm: boolean }
  | { held: false; holder: string; expiresAt: Date };

/** A write refused because its term is over: the writer must stop pulling. */
export class LeaseLostError extends Error {
  constructor(fence: Fence) {
    super(`the lease of ${fence.account} (epoch ${fence.epoch}) is no longer held by ${fence.holder}`);
    this.name = 'LeaseLostError';
  }
}

export const newHolderId = () => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

const clockOf = (now: (() => number) | undefined): RawBuilder<Date> =>
  now === undefined ? sql<Date>`clock_timestamp()` : sql<Date>`${new Date(now()).toISOString()}::timestamptz`;

/**
 * Fails with LeaseLostError unless `fence` is the account's current, unexpired term. Call it first
 * in every transaction the puller writes in.
 */
export async function checkFence(
  trx: Transaction<Database>,
  fence: Fence,
  now?: () => number,
): Promise<void> {
  const row = await trx
    .selectFrom('puller_leases')
    .select('epoch')
    .where('account', '=', fence.account)
    .where('holder', '=', fence.holder)
    .where('epoch', '=', fence.epoch)
    .where('expires_at', '>', clockOf(now))
    .forKeyShare()
    .executeTakeFirst();
  if (row === undefined) throw new LeaseLostError(fence);
}

/**
 * The lease of one account, as one instance sees it: `acquire` takes it when free or expired and
 * renews it when held (call it every third of `seconds` or so); `release` gives it up at once, for
 * a shutdown, so that another instance need not wait for the expiry.
 */
export function createLease(db: Kysely<Database>, o: LeaseOptions) {
  const holder = o.holder ?? newHolderId();
  let lastEpoch: string | undefined;

  async function acquire(): Promise<LeaseState> {
    const now = clockOf(o.now);
    const until = sql<Date>`${now} + make_interval(secs => ${o.seconds})`;
    // One statement, so one transaction: taken when there is no row, renewed by its holder, taken
    // over when expired. A term that expired starts a new epoch even for the same holder: its
    // writes were refused meanwhile, so a delta may have been lost.
    const taken = await db
      .insertInto('puller_leases')
      .values({ account: o.account, holder, epoch: 1, expires_at: until })
      .onConflict((c) =>
        c
          .column('account')
          .doUpdateSet({
            holder,
            epoch: sql`case when puller_leases.holder = ${holder} and puller_leases.expires_at > ${now}
              then puller_leases.epoch else puller_leases.epoch + 1 end`,
            expires_at: until,
          })
          .where((w) =>
            w.or([w('puller_leases.holder', '=', holder), w('puller_leases.expires_at', '<=', now)]),
          ),
      )
      .returning(['epoch', 'expires_at'])
      .executeTakeFirst();
    if (taken !== undefined) {
      const epoch = String(taken.epoch);
      const newTerm = epoch !== lastEpoch;
      lastEpoch = epoch;
      return {
        held: true,
        fence: { account: o.account, holder, epoch },
        expiresAt: taken.expires_at,
        newTerm,
      };
    }
    lastEpoch = undefined;
    const other = await db
      .selectFrom('puller_leases')
      .select(['holder', 'expires_at'])
      .where('account', '=', o.account)
      .executeTakeFirstOrThrow();
    return { held: false, holder: other.holder, expiresAt: other.expires_at };
  }

  /** Ends this instance's term now (the epoch stays, so the next term's is greater). */
  async function release(): Promise<void> {
    lastEpoch = undefined;
    await db
      .updateTable('puller_leases')
      .set({ expires_at: sql<Date>`'-infinity'::timestamptz` })
      .where('account', '=', o.account)
      .where('holder', '=', holder)
      .execute();
  }

  return { holder, acquire, release };
}

export type Lease = ReturnType<typeof createLease>;
