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
