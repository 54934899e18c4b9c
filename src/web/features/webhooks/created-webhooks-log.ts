import { useSyncExternalStore } from 'react';
import * as z from 'zod/mini';

/**
 * Webhooks created from this browser, kept in its localStorage: the service offers no way to list
 * webhooks, so this is the only record an admin has. It holds what the service answered (uuid,
 * address, event type, time), never the bearer token.
 */
export const CREATED_WEBHOOKS_KEY = 'haulview.webhooks.created';
const MAX_ENTRIES = 200;

const LoggedWebhook = z.object({
  uuid: z.string(),
  eventType: z.string(),
  clientUrl: z.string(),
  /** The service's `createdAt`, or the time the answer arrived when it sent none. */
  createdAt: z.string(),
});
export type LoggedWebhook = z.infer<typeof LoggedWebhook>;

export interface CreatedWebhooksSnapshot {
  entries: readonly LoggedWebhook[];
  /** Why the log cannot be read or written, if it cannot. */
  problem?: string;
}

const listeners = new Set<() => void>();
let cached: { raw: string | null; problem: string | undefined; snapshot: CreatedWebhooksSnapshot } | null =
  null;
let writeProblem: string | undefined;

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    // Storage disabled by the browser's settings throws on access.
    return undefined;
  }
}

function readRaw(): { raw: string | null; problem?: string } {
  const store = storage();
  if (!store) return { raw: null, problem: 'This browser does not let Haulview keep a local log.' };
  try {
    return { raw: store.getItem(CREATED_WEBHOOKS_KEY) };
  } catch {
    return { raw: null, problem: 'This browser does not let Haulview read its local log.' };
  }
}

/** Entries in the stored text; unreadable text or entries are dropped, one bad entry costs only itself. */
function parse(raw: string | null): LoggedWebhook[] {
  if (!raw) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(json)) return [];
  return json.flatMap((item) => {
    const entry = LoggedWebhook.safeParse(item);
    return entry.success ? [entry.data] : [];
  });
}

/** The current log; the same object while nothing changed (useSyncExternalStore needs that). */
export function readCreatedWebhooks(): CreatedWebhooksSnapshot {
  const { raw, problem: readProblem } = readRaw();
  const problem = readProblem ?? writeProblem;
  if (cached && cached.raw === raw && cached.problem === problem) return cached.snapshot;
  const snapshot: CreatedWebhooksSnapshot = { entries: parse(raw), ...(problem ? { problem } : {}) };
  cached = { raw, problem, snapshot };
  return snapshot;
}

function write(entries: LoggedWebhook[]): void {
  const store = storage();
  try {
    if (!store) throw new Error('no storage');
    if (entries.length === 0) store.removeItem(CREATED_WEBHOOKS_KEY);
    else store.setItem(CREATED_WEBHOOKS_KEY, JSON.stringify(entries));
    writeProblem = undefined;
  } catch {
    writeProblem = 'This browser did not let Haulview save its local log; the newest webhook is not in it.';
  }
  for (const listener of listeners) listener();
}

/** Adds one created webhook at the top (newest first); the same uuid is kept once. */
export function recordCreatedWebhook(entry: LoggedWebhook): void {
  // Only the four named fields are stored, whatever else the caller's object holds.
  const clean: LoggedWebhook = {
    uuid: entry.uuid,
    eventType: entry.eventType,
    clientUrl: entry.clientUrl,
    createdAt: entry.createdAt,
  };
  const rest = readCreatedWebhooks().entries.filter((e) => e.uuid !== clean.uuid);
  write([clean, ...rest].slice(0, MAX_ENTRIES));
}

export function clearCreatedWebhooks(): void {
  write([]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of this browser may add to the log too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === CREATED_WEBHOOKS_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useCreatedWebhooks(): CreatedWebhooksSnapshot {
  return useSyncExternalStore(subscribe, readCreatedWebhooks, readCreatedWebhooks);
}
