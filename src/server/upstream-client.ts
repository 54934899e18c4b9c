import type { LoadNumberRequest, LoadTrackRequest } from '@/contract/pull-request';
import { PullErrorBody } from '@/contract/errors';
import { parsePullAnswer, type Parsed, type PullAnswer } from '@/contract/parse-pull';
import type { IncludeFlags } from '@/contract/proxy-api';
import type { LoadBy } from '@/domain/model';
import { ProxyError } from './errors';

export interface UpstreamOptions {
  baseUrl: string;
  partnerId: number;
  accountId: string;
  timeoutMs: number;
  /** Largest answer read, in bytes; larger ones are refused (502). */
  maxBytes: number;
}

export interface UpstreamStats {
  calls: number;
  lastReachableAt: number | null;
}

/**
 * The only code that talks to the upstream. It calls three fixed URLs built from the configured base;
 * nothing in a browser's request can change host, path or scheme. Redirects are not followed and no
 * browser header is forwarded. Credentials are added here and appear in no error it raises.
 */
export function createUpstreamClient(o: UpstreamOptions) {
  const urls = {
    'external-id': `${o.baseUrl}/loadtrackservice/getLoadTrackDetailsServiceV2`,
    'load-number': `${o.baseUrl}/loadtrackservice/getLoadTrackDetailsServiceByLoadNumber`,
    webhooks: `${o.baseUrl}/api/v1/webhooks`,
  } as const;
  const stats: UpstreamStats = { calls: 0, lastReachableAt: null };

  async function send(url: string, init: RequestInit): Promise<{ response: Response; text: string }> {
    stats.calls++;
    let response: Response;
    try {
      response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(o.timeoutMs) });
    } catch (error) {
      if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        throw new ProxyError(504, 'upstream_timeout', `the upstream did not answer within ${o.timeoutMs} ms`);
      }
      throw new ProxyError(502, 'upstream_unreachable', 'the upstream could not be reached');
    }
    stats.lastReachableAt = Date.now();
    let text: string;
    try {
      text = await readCapped(response, o.maxBytes);
    } catch (error) {
      if (error instanceof ProxyError) throw error;
      if (error instanceof DOMException && error.name === 'TimeoutError') {
        throw new ProxyError(
          504,
          'upstream_timeout',
          `the upstream's answer did not complete within ${o.timeoutMs} ms`,
        );
      }
      throw new ProxyError(
        502,
        'upstream_truncated',
        "the upstream's answer broke off before it was complete",
      );
    }
    return { response, text };
  }

  async function pull(
    by: LoadBy,
    ids: string[],
    include: IncludeFlags | undefined,
    sendNewData: 'yes' | 'no',
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
    const { response, text } = await send(urls[by], {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status === 401) {
      const parsed = PullErrorBody.safeParse(safeJson(text));
      const upstream = parsed.success ? parsed.data : undefined;
      throw new ProxyError(
        502,
        'partner_credentials_rejected',
        'the upstream rejected the partner credentials',
        {
          upstreamMessage: upstream?.message ?? null,
          upstreamErrorCode: upstream?.errorCode ?? null,
        },
      );
    }
    if (response.status === 429) {
      const retryAfter = response.headers.get('retry-after') ?? '';
      throw new ProxyError(
        429,
        'upstream_rate_limited',
        'the upstream asks us to slow down',
        { retryAfter },
        retryAfter ? { 'Retry-After': retryAfter } : undefined,
      );
    }
    if (response.status >= 300 && response.status < 400) {
      throw new ProxyError(
        502,
        'upstream_redirect',
        `the upstream answered with a redirect (${response.status}), which is not followed`,
      );
    }
    if (!response.ok) {
      throw new ProxyError(502, 'upstream_error', `the upstream answered with HTTP ${response.status}`, {
        upstreamStatus: response.status,
      });
    }
    const json = safeJson(text);
    if (json === undefined) {
      throw new ProxyError(
        502,
        'upstream_bad_json',
        "the upstream's answer is not valid JSON (it may be truncated)",
      );
    }
    const answer = parsePullAnswer(json);
    if ('error' in answer) throw new ProxyError(502, 'upstream_bad_answer', answer.error);
    if (!answer.data.status) {
      const message = PullErrorBody.safeParse(json);
      throw new ProxyError(
        502,
        'upstream_refused',
        `the upstream reported a failure: ${(message.success && message.data.message) || 'no message'}`,
      );
    }
    return answer;
  }

  return { pull, stats, urls };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads a body as text, refusing it once it grows past `maxBytes`. */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new ProxyError(502, 'upstream_too_large', `the upstream's answer is larger than ${maxBytes} bytes`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new ProxyError(
        502,
        'upstream_too_large',
        `the upstream's answer is larger than ${maxBytes} bytes`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
