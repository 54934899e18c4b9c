import type { LoadNumberRequest, LoadTrackRequest } from '@/contract/pull-request';
import { PullErrorBody } from '@/contract/errors';
import {
  KnownDetail,
  parsePullAnswer,
  rawDetailId,
  unreadDetails,
  type KnownDetails,
  type Parsed,
  type PullAnswer,
} from '@/contract/parse-pull';
import { bytesPrint } from '@/contract/json-print';
import { memberAt, splitPullAnswer, valueEndAt } from '@/contract/pull-split';
import type { IncludeFlags } from '@/contract/proxy-api';
import type { LoadBy } from '@/domain/model';
import { credentialScrub } from './credential-scrub';
import { ProxyError } from './errors';
import { createTransport, TransportError, type TransportAnswer } from './upstream-transport';

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

export interface UpstreamOptions {
  baseUrl: string;
  partnerId: number;
  accountId: string;
  timeoutMs: number;
  /** Largest answer read, in bytes; larger ones are refused (502). */
  maxBytes: number;
  /** Consecutive failures after which calls fail fast for `breakerOpenMs` (then one probe goes through). */
  breakerThreshold?: number;
  breakerOpenMs?: number;
  now?: () => number;
  /**
   * Aborted when the process shuts down: every call in flight is given up at once, so a slow
   * answer cannot hold a deploy past its grace.
   */
  signal?: AbortSignal;
}

export interface UpstreamStats {
  /** Requests that left for the upstream. */
  calls: number;
  lastReachableAt: number | null;
  /** The last 2xx answer. */
  lastSuccessAt: number | null;
  /** The last call that failed, as the proxy told the browser; the proxy's own fast refusals aside. */
  lastError: { at: number; code: string; message: string } | null;
  /** The last 429: its wait in seconds and when calls may resume. */
  rateLimit: { retryAfterSeconds: number; until: number } | null;
  consecutiveFailures: number;
  /** Failures in a row after which calls fail fast for a while. */
  pauseAfterFailures: number;
  /** While failing fast: until when (then one probe goes through). */
  pausedUntil: number | null;
}

/** Reads `Retry-After` (seconds or an HTTP date) as milliseconds from now; 1 s when unreadable. */
export function retryAfterMs(header: string | null, now: number): number {
  if (header === null || header.trim() === '') return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : 1000;
}

/**
 * The only code that talks to the upstream. It calls three fixed URLs built from the configured base;
 * nothing in a browser's request can change host, path or scheme. Redirects are not followed and no
 * browser header is forwarded. Credentials are added here and appear in no error it raises.
 *
 * Pulls with `sendNewData: yes` are not idempotent, so a request that may have reached the upstream
 * is never retried; only a refused connection (provably not reached) is tried once more, and a full
 * pull (`sendNewData: no`) also when its kept-alive connection was reset before any answer. A 429 is
 * honoured: no call before its `Retry-After`. After repeated failures calls fail fast for a while,
 * then one probe goes through.
 */
export function createUpstreamClient(o: UpstreamOptions) {
  const urls = {
    'external-id': `${o.baseUrl}/loadtrackservice/getLoadTrackDetailsServiceV2`,
    'load-number': `${o.baseUrl}/loadtrackservice/getLoadTrackDetailsServiceByLoadNumber`,
    webhooks: `${o.baseUrl}/api/v1/webhooks`,
  } as const;
  const now = o.now ?? Date.now;
  // A service may quote the request in its messages; what it says is relayed, the credentials are not.
  const hide = credentialScrub(o);
  const threshold = o.breakerThreshold ?? 5;
  const openMs = o.breakerOpenMs ?? 30_000;
  const stats: UpstreamStats = {
    calls: 0,
    lastReachableAt: null,
    lastSuccessAt: null,
    lastError: null,
    rateLimit: null,
    consecutiveFailures: 0,
    pauseAfterFailures: threshold,
    pausedUntil: null,
  };
  const transport = createTransport({ timeoutMs: o.timeoutMs, maxBytes: o.maxBytes });
  let blockedUntil = 0;
  let failures = 0;
  let openUntil = 0;
  let probing = false;
  /** The code of the latest failure, so that failing fast still says what kind of failure it was. */
  let lastFailure: { code: string; upstreamStatus?: number } | null = null;

  function gate(): void {
    try {
      closedGate();
    } catch (error) {
      if (error instanceof ProxyError) gateRefusals.add(error);
      throw error;
    }
  }

  function closedGate(): void {
    const t = now();
    if (t < blockedUntil) {
      const seconds = Math.ceil((blockedUntil - t) / 1000);
      throw new ProxyError(
        429,
        'upstream_rate_limited',
        `the upstream asked us to wait; next call in ${seconds} s`,
        { retryAfter: String(seconds) },
        { 'Retry-After': String(seconds) },
      );
    }
    if (failures >= threshold) {
      if (t < openUntil || probing) {
        const seconds = Math.max(1, Math.ceil((openUntil - t) / 1000));
        throw new ProxyError(
          503,
          'upstream_unavailable',
          `the upstream failed ${failures} times in a row; trying again in ${seconds} s`,
          { retryAfter: String(seconds), lastFailure },
          { 'Retry-After': String(seconds) },
        );
      }
      probing = true;
    }
  }

  function failed(code: string, upstreamStatus?: number): void {
    failures++;
    lastFailure = upstreamStatus === undefined ? { code } : { code, upstreamStatus };
    probing = false;
    if (failures >= threshold) openUntil = now() + openMs;
    stats.consecutiveFailures = failures;
    stats.pausedUntil = failures >= threshold ? openUntil : null;
  }

  function succeeded(): void {
    failures = 0;
    probing = false;
    stats.consecutiveFailures = 0;
    stats.pausedUntil = null;
  }

  /**
   * Runs a call and notes how it went for the diagnostics page: a 2xx answer as the last success, a
   * proxy error as the last error, except the gate's own refusals (the service was not called).
   */
  async function noted<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      note(error);
      throw error;
    }
  }
  function note(error: unknown): void {
    if (error instanceof ProxyError && !gateRefusals.has(error)) {
      stats.lastError = { at: now(), code: error.code, message: error.message };
    }
  }
  const gateRefusals = new WeakSet<ProxyError>();

  async function attempt(url: string, headers: Record<string, string>, body: string, idempotent: boolean) {
    for (let tries = 0; ; tries++) {
      stats.calls++;
      try {
        return await transport.post(url, headers, body, o.signal);
      } catch (error) {
        if (
          tries === 0 &&
          error instanceof TransportError &&
          (error.failure === 'refused' || (error.failure === 'reset_reused' && idempotent)) &&
          !o.signal?.aborted
        ) {
          await new Promise((r) => setTimeout(r, 200));
          continue;
        }
        throw error;
      }
    }
  }

  /** One call; `idempotent`: asking twice does no harm (a full pull), so a reset connection is asked again. */
  async function send(
    url: string,
    headers: Record<string, string>,
    body: string,
    idempotent = false,
  ): Promise<TransportAnswer> {
    gate();
    let answer: TransportAnswer;
    try {
      answer = await attempt(url, headers, body, idempotent);
    } catch (error) {
      const caught = error instanceof TransportError ? error.failure : 'unreachable';
      const failure = caught === 'reset_reused' ? 'unreachable' : caught;
      // Our own doing, not the service's: no failure is counted against it.
      if (failure === 'aborted')
        throw new ProxyError(
          503,
          'draining',
          'this instance is shutting down; the upstream call was given up',
        );
      if (failure === 'refused' || failure === 'unreachable') {
        failed('upstream_unreachable');
        throw new ProxyError(502, 'upstream_unreachable', 'the upstream could not be reached');
      }
      // It answered, in part at least.
      if (failure !== 'timeout') stats.lastReachableAt = now();
      if (failure === 'timeout' || failure === 'body_timeout') {
        failed('upstream_timeout');
        throw new ProxyError(
          504,
          'upstream_timeout',
          failure === 'timeout'
            ? `the upstream did not answer within ${o.timeoutMs} ms`
            : `the upstream's answer did not complete within ${o.timeoutMs} ms`,
        );
      }
      if (failure === 'too_large') {
        // The service answered: too much for one call is the request's size, not an outage, and the
        // track cache's halving would otherwise pause all calls on its way down to one load.
        succeeded();
        throw new ProxyError(
          502,
          'upstream_too_large',
          `the upstream's answer is larger than ${o.maxBytes} bytes`,
        );
      }
      if (failure === 'malformed') {
        failed('upstream_bad_answer');
        throw new ProxyError(
          502,
          'upstream_bad_answer',
          "the upstream's answer is not HTTP the proxy can read",
        );
      }
      if (failure === 'bad_encoding') {
        failed('upstream_bad_answer');
        const encoding = error instanceof TransportError ? error.encoding : undefined;
        throw new ProxyError(
          502,
          'upstream_bad_answer',
          `the upstream's answer is encoded as "${encoding ?? 'unknown'}", which the proxy did not ask for and does not read`,
        );
      }
      failed('upstream_truncated');
      throw new ProxyError(
        502,
        'upstream_truncated',
        "the upstream's answer broke off before it was complete",
      );
    }
    stats.lastReachableAt = now();
    if (answer.status === 429) {
      const wait = retryAfterMs(answer.header('retry-after'), now());
      blockedUntil = Math.max(blockedUntil, now() + wait);
      const seconds = String(Math.ceil(wait / 1000));
      stats.rateLimit = { retryAfterSeconds: Math.ceil(wait / 1000), until: blockedUntil };
      throw new ProxyError(
        429,
        'upstream_rate_limited',
        `the upstream asks us to slow down; next call in ${seconds} s`,
        { retryAfter: seconds },
        { 'Retry-After': seconds },
      );
    }
    if (answer.status >= 500) failed('upstream_error', answer.status);
    else succeeded();
    if (answer.status >= 200 && answer.status < 300) stats.lastSuccessAt = now();
    return answer;
  }

  async function pull(
    by: LoadBy,
    ids: string[],
    include: IncludeFlags | undefined,
    sendNewData: 'yes' | 'no',
    seen?: KnownDetails['seen'],
  ): Promise<Parsed<PullAnswer>> {
    const flags = {
      sendNewData,
      includeLocations: include?.locations ?? true,
      includeEvents: include?.events ?? true,
      includeDocuments: include?.documents ?? true,
      includeComments: include?.comments ?? true,
    };
    const body: LoadTrackRequest | LoadNumberRequest =
      by === 'external-id'
        ? { partnerId: o.partnerId, accountId: o.accountId, loadTrackExternalIds: ids, ...flags }
        : {
            partnerId: o.partnerId,
            accountId: o.accountId,
            loadNumbers: ids,
            loadTrackExternalIds: [],
            ...flags,
          };
    const answer = await send(urls[by], JSON_HEADERS, JSON.stringify(body), sendNewData === 'no');
    if (answer.status === 401) {
      const parsed = PullErrorBody.safeParse(safeJson(answer.text));
      const upstream = parsed.success ? parsed.data : undefined;
      throw new ProxyError(
        502,
        'partner_credentials_rejected',
        'the upstream rejected the partner credentials',
        {
          upstreamMessage: upstream?.message === undefined ? null : hide.text(upstream.message),
          upstreamErrorCode: upstream?.errorCode ?? null,
        },
      );
    }
    if (answer.status >= 300 && answer.status < 400) {
      throw new ProxyError(
        502,
        'upstream_redirect',
        `the upstream answered with a redirect (${answer.status}), which is not followed`,
      );
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new ProxyError(502, 'upstream_error', `the upstream answered with HTTP ${answer.status}`, {
        upstreamStatus: answer.status,
      });
    }
    // Asked about what it knows, the caller gets only the details it does not know parsed; asked
    // about nothing (a full pull), it gets them as text, each read when the caller comes to it.
    const split = seen && knownSkipped(answer.body, by, seen);
    const later = seen ? undefined : detailsLater(answer.body);
    const json = split ?? later?.envelope ?? safeJson(answer.text);
    if (json === undefined) throw badJson(answer.text);
    const parsed = parsePullAnswer(json, seen && split === undefined ? { by, seen } : undefined);
    if ('error' in parsed) throw new ProxyError(502, 'upstream_bad_answer', hide.text(parsed.error));
    if (!parsed.data.status) {
      const message = PullErrorBody.safeParse(json);
      throw new ProxyError(
        502,
        'upstream_refused',
        `the upstream reported a failure: ${hide.text((message.success && message.data.message) || 'no message')}`,
      );
    }
    if (later) {
      // A detail read after the call returned refuses the answer then: noted as the call's would be.
      const raw = (i: number) => {
        try {
          return later.raw(i);
        } catch (error) {
          note(error);
          throw error;
        }
      };
      parsed.data.unread = unreadDetails(later.count, 0, raw, parsed.issues);
    }
    return parsed;
  }

  /**
   * 4.4: creates a webhook with the browser's bearer token. A 2xx or 4xx answer with a JSON body is
   * relayed (status, body with the credentials it quotes hidden, `Location` when it is a webhook
   * path); a 5xx, a 3xx (a browser's fetch would follow it) or a body that is not JSON becomes a
   * proxy error, as transport failures do.
   */
  async function createWebhook(
    body: { eventType: string; clientUrl: string },
    authorization: string | undefined,
  ): Promise<{ status: number; body: unknown; location: string | undefined }> {
    const answer = await send(
      urls.webhooks,
      authorization ? { ...JSON_HEADERS, Authorization: authorization } : JSON_HEADERS,
      JSON.stringify(body),
    );
    if (answer.status >= 500) {
      throw new ProxyError(502, 'upstream_error', `the webhook service answered with HTTP ${answer.status}`, {
        upstreamStatus: answer.status,
      });
    }
    if (answer.status < 200 || (answer.status >= 300 && answer.status < 400)) {
      throw new ProxyError(
        502,
        'upstream_bad_answer',
        `the webhook service answered HTTP ${answer.status}, which the proxy does not relay`,
      );
    }
    const json = safeJson(answer.text);
    if (json === undefined) {
      throw new ProxyError(
        502,
        'upstream_bad_answer',
        `the webhook service answered HTTP ${answer.status} with a body that is not JSON`,
      );
    }
    const location = answer.header('location') ?? undefined;
    return {
      status: answer.status,
      body: hide.value(json),
      location: location && /^\/api\/v1\/webhooks\/[\w-]+$/.test(location) ? location : undefined,
    };
  }

  return {
    pull: (...args: Parameters<typeof pull>) => noted(() => pull(...args)),
    createWebhook: (...args: Parameters<typeof createWebhook>) => noted(() => createWebhook(...args)),
    stats,
    urls,
    /** Hides the credentials the service quotes in what it sends (a load's undocumented fields). */
    hide,
    /** The client's clock, for reading `stats` in its time. */
    now,
  };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;

/**
 * A pull answer with each detail `seen` recognises (by its id and the print of its bytes) in place
 * as a `KnownDetail`, and only the others decoded and parsed; undefined when its shape is not plain
 * enough to split (`splitPullAnswer`), or when it is not valid JSON.
 */
function knownSkipped(body: Buffer, by: LoadBy, seen: KnownDetails['seen']): unknown {
  const split = splitPullAnswer(body);
  if (!split) return undefined;
  try {
    const envelope = JSON.parse(
      `${body.toString('utf8', 0, split.start)}[]${body.toString('utf8', split.end)}`,
    ) as Record<string, unknown>;
    // Skipped only when every detail's id is read from its bytes (see `rawDetailIds`).
    const ids: (string | undefined)[] = split.details.map(({ start }) => idInBytes(body, start, by));
    const sure = !ids.includes(undefined);
    const details = split.details.map(({ start, end }, i) => {
      const id = sure ? ids[i] : undefined;
      const notes = id === undefined ? undefined : seen(id, bytesPrint(body, start, end));
      return notes ? new KnownDetail(notes) : (JSON.parse(body.toString('utf8', start, end)) as unknown);
    });
    envelope.details = details;
    return envelope;
  } catch {
    return undefined;
  }
}

/**
 * A pull answer's envelope with its details left out, and a reader of each detail's text, when
 * its shape is plain enough to split (`splitPullAnswer`); undefined otherwise (read it whole). A
 * detail whose text is not JSON is found when it is read: its reader throws the answer's refusal.
 */
function detailsLater(
  body: Buffer,
): { envelope: unknown; count: number; raw: (i: number) => unknown } | undefined {
  const split = splitPullAnswer(body);
  if (!split) return undefined;
  const envelope = safeJson(`${body.toString('utf8', 0, split.start)}[]${body.toString('utf8', split.end)}`);
  if (envelope === undefined) return undefined;
  return {
    envelope,
    count: split.details.length,
    raw: (i) => {
      const at = split.details[i] as { start: number; end: number };
      const value = safeJson(body.toString('utf8', at.start, at.end));
      if (value === undefined) throw badJson();
      return value;
    },
  };
}

/** An answer that is not JSON; one that begins as markup is a web page (a maintenance page, a proxy's). */
const badJson = (text?: string) =>
  new ProxyError(
    502,
    'upstream_bad_json',
    text !== undefined && /^\s*</.test(text.slice(0, 200))
      ? "the upstream's answer is a web page, not JSON (a maintenance or error page?)"
      : "the upstream's answer is not valid JSON (it may be truncated)",
  );

/** Where a detail's id is read from, first to last (`detailId`). */
const ID_KEYS = {
  'external-id': ['loadTrackExternalId', 'ltExternalId'],
  'load-number': ['loadNumber', 'ltExternalId'],
} as const;

/** The id of the detail whose text begins at `start`, as `detailId` would read it; undefined when unsure. */
function idInBytes(body: Buffer, start: number, by: LoadBy): string | undefined {
  const ids: Record<string, unknown> = {};
  for (const key of ID_KEYS[by]) {
    const at = memberAt(body, start, key);
    if (at === -2) return undefined;
    if (at >= 0) ids[key] = JSON.parse(body.toString('utf8', at, valueEndAt(body, at)));
    // The first one read as an id: the fallback is not looked at.
    const id = rawDetailId(ids, by);
    if (id !== undefined) return id;
  }
  return undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
