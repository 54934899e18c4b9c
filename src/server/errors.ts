import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** An error the proxy answers with `{ error: { code, message, details? } }` and `status`. */
export class ProxyError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ProxyError';
  }
}

/**
 * The 503 `store_unavailable` for a call to the store that failed (a ProxyError passes through as
 * it is); `what` says what waits for the store, e.g. "document reviews cannot be read or saved now".
 */
export function storeUnavailable(what: string, details?: StoreWaits): (error: unknown) => never {
  return (error) => {
    if (error instanceof ProxyError) throw error;
    // PostgreSQL's data exceptions (class 22: a NUL in a text, say) are the input's fault, not the store's.
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code))
      throw new ProxyError(
        400,
        'invalid_request',
        `the store refused a value sent: ${(error as Error).message}`,
      );
    throw new ProxyError(503, 'store_unavailable', `the store does not answer: ${what}`, details);
  };
}

/** A 503 `store_unavailable`'s details when the loads themselves wait (TRACKS=store keeps them there). */
export interface StoreWaits {
  waits: 'loads';
}

/** The store's database, or a 503 when this server runs without one (some tests). */
export function requireStore<T>(db: T | undefined): T {
  if (db === undefined) throw new ProxyError(503, 'store_unavailable', 'this server has no store');
  return db;
}
