import { vi } from 'vitest';
import { CLIENT_CONFIG } from '@/testing/client-config';
import type { Role } from '@/contract/proxy-api';
import type { DocumentReview, RejectReason, ReviewChanged, ReviewRequest } from '@/contract/review-api';
import type { PaperworkAnswer } from '@/contract/billing-api';
import type { LoadBy } from '@/domain/model';
import { proxyPullAnswer } from '@/testing/proxy-answer';

/**
 * For this feature's tests: documents in the upstream's wire shape (upstream-api.md 2.6.7) and a
 * stand-in for the proxy's pull routes, so answers go through the proxy's own parser and normalizer.
 */

export type Wire = Record<string, unknown>;

export const CONFIG = CLIENT_CONFIG;

/** A document item; `local` is the device-local `timestamp` (`MM/DD/YYYY HH:mm ZONE`), null for none. */
export function wireDocument(url: string, type: string | null, local: string | null, over: Wire = {}): Wire {
  return {
    type,
    ...(local === null ? {} : { timestamp: local }),
    url,
    location: { lat: '41.25', lon: '-95.93', city: 'Omaha', state: 'NE', country: 'US' },
    stopOrderNumber: 1,
    stopExternalId: 'S1',
    driver: { name: 'Elena Smith' },
    ...over,
  };
}

/** A load detail in the 2.4 shape (by external id) or 2.5 shape (by load number), documents only. */
export function wireLoad(by: LoadBy, id: string, documents: Wire[], stops?: unknown): Wire {
  const extra = stops === undefined ? {} : { stops };
  return by === 'external-id'
    ? {
        loadTrackExternalId: Number.isNaN(Number(id)) ? id : Number(id),
        ltExternalId: 9100,
        documents,
        ...extra,
      }
    : { loadNumber: id, documents, ...extra };
}

/** A trip's stop as the service sends it (an undocumented field of the load). */
export function wireStop(order: number, kind: 'PICKUP' | 'DELIVERY', city: string, state: string): Wire {
  return { stopExternalId: `S${order}`, orderNumber: order, stopType: kind, city, state, country: 'US' };
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * The proxy's `POST /api/pull/by-external-id` and `/by-load-number`, answering from `loads` as they
 * are at the time of each call: a test changes them, refetches, and sees the change. Also
 * `GET /api/session` (a broker, `Ana`) and `GET`/`PUT /api/documents/reviews`, kept in `reviews`.
 */
export function fakeProxy() {
  const loads: Record<LoadBy, Map<string, Wire[]>> = {
    'external-id': new Map(),
    'load-number': new Map(),
  };
  const state = {
    loads,
    /** What `GET /api/billing/paperwork` answers (the PODs' and BOLs' checks); null: a 503. */
    paperwork: null as PaperworkAnswer | null,
    /** How many times the paperwork was asked for, and its query the last time ('' for none). */
    paperworkAsks: 0,
    paperworkQuery: '',
    /** Answer with something that is no pull answer (an error the client does not retry). */
    broken: false,
    /** Never answer: the page stays loading. */
    hold: false,
    /** Ids the proxy's store has not pulled yet: answered as `pending` (several instances). */
    pending: new Set<string>(),
    /** The bodies asked for, per kind of id. */
    calls: [] as { by: LoadBy; ids: string[]; include: unknown }[],
    set(by: LoadBy, id: string, documents: Wire[]) {
      loads[by].set(id, documents);
    },
    /** A load's stops (`extras.stops`), or anything else sent in their place. */
    stops: new Map<string, unknown>(),
    user: { name: 'Ana', role: 'broker' as Role },
    /** The team's reviews by document URL, as the server keeps them. */
    reviews: new Map<string, DocumentReview>(),
    /** The latest change number, and each review's, as the server's `?since=` compares them. */
    change: 0,
    changes: new Map<string, number>(),
    /** The `since` of each reviews read, `null` for none: what the page asked for. */
    sinces: [] as (string | null)[],
    /** The decisions sent, in order. */
    decisions: [] as ReviewRequest[],
    /** Reviews answer 503 `store_unavailable`, as with the database gone. */
    storeDown: false,
    /** A decision answers 403 `forbidden_role`, as for a user an admin made a dispatcher meanwhile. */
    demoted: false,
    /** A decision by someone (another user, by default), as if made in another browser. */
    decide(
      url: string,
      decision: DocumentReview['decision'] = 'approved',
      by = 'Bo',
      load = 'e:700100',
      reason: RejectReason = 'blurry',
    ) {
      const before = state.reviews.get(url);
      const review: DocumentReview = {
        load,
        url,
        decision,
        reason: decision === 'rejected' ? reason : null,
        note: null,
        decidedBy: by,
        decidedAt: new Date().toISOString(),
        version: (before?.version ?? 0) + 1,
        replaced:
          before === undefined
            ? null
            : before.decidedBy === by
              ? before.replaced
              : before.decision === 'pending'
                ? null
                : {
                    decision: before.decision,
                    reason: before.reason,
                    decidedBy: before.decidedBy,
                    decidedAt: before.decidedAt,
                  },
      };
      state.reviews.set(url, review);
      state.changes.set(url, ++state.change);
      return { review, replaced: before && before.decidedBy !== by ? before : null } satisfies ReviewChanged;
    },
    /** The stored decision on a document, or undefined. */
    decisionOf(url: string) {
      return state.reviews.get(url)?.decision;
    },
  };
  const storeDown = () =>
    jsonResponse(503, { error: { code: 'store_unavailable', message: 'the store does not answer' } });
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const by: LoadBy | undefined = path.endsWith('/api/pull/by-external-id')
      ? 'external-id'
      : path.endsWith('/api/pull/by-load-number')
        ? 'load-number'
        : undefined;
    if (path.endsWith('/api/session')) return jsonResponse(200, { mode: 'users', user: state.user });
    if (/\/api\/billing\/paperwork(\?|$)/.test(path)) {
      state.paperworkAsks++;
      state.paperworkQuery = path.includes('?') ? path.slice(path.indexOf('?')) : '';
      return state.paperwork ? jsonResponse(200, state.paperwork) : storeDown();
    }
    if (path.includes('/api/documents/reviews')) {
      if (state.storeDown) return storeDown();
      if (init?.method === 'PUT') {
        if (state.demoted)
          return jsonResponse(403, {
            error: {
              code: 'forbidden_role',
              message: 'your role (dispatcher) may not do this: it is for broker or admin',
            },
          });
        const body = JSON.parse(String(init.body)) as ReviewRequest;
        state.decisions.push(body);
        const { review, replaced } = state.decide(body.url, body.decision, state.user.name, body.load);
        const stored = { ...review, note: body.note ?? null, reason: body.reason ?? null };
        state.reviews.set(body.url, stored);
        return jsonResponse(200, { review: stored, replaced });
      }
      const since = new URL(path, 'http://x').searchParams.get('since');
      state.sinces.push(since);
      const reviews = [...state.reviews.values()].filter(
        (r) => since === null || (state.changes.get(r.url) ?? 0) > Number(since),
      );
      return jsonResponse(200, { reviews, cursor: String(state.change), full: since === null });
    }
    if (!by) return jsonResponse(404, { error: { code: 'not_found', message: `no route ${path}` } });
    if (state.hold) return new Promise<Response>(() => {});
    const body = JSON.parse(String(init?.body)) as { ids: string[]; include?: unknown };
    state.calls.push({ by, ids: body.ids, include: body.include });
    if (state.broken) return jsonResponse(200, { nothing: 'here' });
    const details: Wire[] = [];
    const missing: string[] = [];
    const pending: string[] = [];
    for (const id of body.ids) {
      const documents = loads[by].get(id);
      if (state.pending.has(id)) pending.push(id);
      else if (documents) details.push(wireLoad(by, id, documents, state.stops.get(id)));
      else missing.push(id);
    }
    const answer = proxyPullAnswer(details, { by, missing });
    return jsonResponse(200, pending.length > 0 ? { ...answer, pending } : answer);
  });
  return Object.assign(state, { fetchMock });
}
