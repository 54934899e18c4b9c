import type * as z from 'zod/mini';
import { NOT_RECORDED_HEADER } from '@/contract/admin-api';
import { WebhookErrorBody, type WebhookErrorEntry } from '@/contract/errors';
import { ProxyErrorBody } from '@/contract/proxy-api';
import { Webhook, WebhookCreateRequest } from '@/contract/webhook';

/**
 * `POST /api/webhooks`: the proxy relays the service's own answer (4.4: 201 with 2.7 and `Location`,
 * or 400 / 401 / 409 / 422 with 7.2), or answers itself with `{ error: { code, message } }`.
 * The two error shapes are told apart here, where the answer is read, and nowhere else.
 */
export const WEBHOOKS_PATH = '/api/webhooks';

/**
 * The browser's own deadline. Longer than the proxy's upstream deadline (15 s by default), so the
 * proxy's 504 normally arrives first; this one covers a proxy that never answers.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

export interface CreateWebhookInput extends WebhookCreateRequest {
  /** The bearer token, sent in the `Authorization` header of this one request only. */
  token: string;
}

export interface CreatedWebhook {
  webhook: Webhook;
  /** The `Location` header as sent (`/api/v1/webhooks/<uuid>`), if it was sent. */
  location: string | undefined;
  /** False when the service created it but Haulview's store could not record it for the team's list. */
  recorded: boolean;
}

export type WebhookErrorItem = z.infer<typeof WebhookErrorEntry>;

/** Every way creating a webhook can fail, as the page needs to tell them apart. */
export type WebhookFailure =
  /** The service answered with its 7.2 body (400 / 401 / 409 / 422, relayed by the proxy). */
  | { kind: 'rejected'; status: number; errors: WebhookErrorItem[] }
  /** Haulview's proxy answered itself (its validation, access, 502 unreachable, 504 slow …). */
  | {
      kind: 'proxy';
      status: number;
      code: string;
      message: string;
      details?: unknown;
      retryAfter?: string;
    }
  /** The proxy could not be reached at all. */
  | { kind: 'network' }
  /** No answer within the browser's own deadline. */
  | { kind: 'timeout'; afterMs: number }
  /** An answer that is neither a webhook nor one of the two error shapes. */
  | { kind: 'unexpected'; status: number; reason: string };

export class WebhookRequestError extends Error {
  constructor(readonly failure: WebhookFailure) {
    super(`creating the webhook failed: ${failure.kind}`);
    this.name = 'WebhookRequestError';
  }
}

/** Sends one creation request; resolves with the created webhook or throws a WebhookRequestError. */
export async function createWebhook(
  input: CreateWebhookInput,
  options: { timeoutMs?: number } = {},
): Promise<CreatedWebhook> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Strict on what we send: exactly the two documented fields, the URL trimmed and https.
  const body = WebhookCreateRequest.parse({ eventType: input.eventType, clientUrl: input.clientUrl });
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const noAnswer = () =>
    new WebhookRequestError(timedOut ? { kind: 'timeout', afterMs: timeoutMs } : { kind: 'network' });
  try {
    let response: Response;
    try {
      response = await fetch(WEBHOOKS_PATH, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'X-Requested-With': 'haulview',
          Authorization: `Bearer ${input.token}`,
        },
        body: JSON.stringify(body),
        signal: controller.signal,
        // The token must not end up in any cache.
        cache: 'no-store',
      });
    } catch {
      throw noAnswer();
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw noAnswer();
    }
    return readWebhookAnswer(response.status, response.headers, text);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads one answer of `POST /api/webhooks`: the created webhook, or throws what went wrong. */
export function readWebhookAnswer(status: number, headers: Headers, text: string): CreatedWebhook {
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new WebhookRequestError({ kind: 'unexpected', status, reason: 'the answer is not JSON' });
  }
  if (status >= 200 && status < 300) {
    const webhook = Webhook.safeParse(json);
    if (webhook.success) {
      return {
        webhook: webhook.data,
        location: headers.get('location') ?? undefined,
        recorded: headers.get(NOT_RECORDED_HEADER) === null,
      };
    }
    throw new WebhookRequestError({
      kind: 'unexpected',
      status,
      reason: `the created webhook could not be read (${webhook.error.issues[0]?.path.join('.') || 'body'}: ${webhook.error.issues[0]?.message ?? 'invalid'})`,
    });
  }
  const proxy = ProxyErrorBody.safeParse(json);
  if (proxy.success) {
    const { code, message, details } = proxy.data.error;
    const retryAfter = headers.get('retry-after') || undefined;
    throw new WebhookRequestError({ kind: 'proxy', status, code, message, details, retryAfter });
  }
  // WebhookErrorBody accepts any object (every field is lenient), so the 7.2 shape is asked for first.
  if (looksLikeWebhookErrorBody(json)) {
    const body = WebhookErrorBody.safeParse(json);
    if (body.success) throw new WebhookRequestError({ kind: 'rejected', status, errors: body.data.errors });
  }
  throw new WebhookRequestError({
    kind: 'unexpected',
    status,
    reason: 'the answer is neither the service’s error body nor Haulview’s',
  });
}

function looksLikeWebhookErrorBody(json: unknown): json is Record<string, unknown> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const body = json as Record<string, unknown>;
  return Array.isArray(body.errors) || typeof body.statusCode === 'number';
}
