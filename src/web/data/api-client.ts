import type * as z from 'zod/mini';
import { BUILD_HEADER, ProxyErrorBody } from '@/contract/proxy-api';
import { perfMark, type PerfDetail } from '../lib/perf-marks';

/**
 * The SPA's only way to the proxy. Every answer is parsed with the schema the caller names, so a bad
 * answer becomes an ApiError with a message, not a crash three components later.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly retryAfter?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /**
   * Whether asking again may help: the network, or a server-side failure (5xx), except the service
   * refusing the partner's credentials, which only a change of configuration mends.
   */
  get transient(): boolean {
    if (this.code === 'partner_credentials_rejected') return false;
    return this.code === 'network' || this.code === 'timeout' || this.status >= 500;
  }
}

/**
 * The longest a call to the proxy may take: far past any answer it gives (its own calls to the
 * service give up after 15 s), so that a request a paused instance or a dead connection holds fails
 * and the next refresh goes on, instead of every later one waiting behind it.
 */
export const REQUEST_TIMEOUT_MS = 90_000;

/** An answer that does not parse as JSON. */
export const notJson = (status: number, path: string) =>
  new ApiError(status, 'bad_json', `The server answered ${path} with something that is not JSON.`);

/** How a successful answer's text becomes the value its schema checks (`JSON.parse` unless a caller knows better). */
export type AnswerParse = (text: string) => unknown;

/** Who hears which build each answer came from (`servedBuild` on the page, the worker's relay). */
let hearBuild: ((build: string) => void) | undefined;

/** Tells `listen` the build named by every answer from now on (one listener per thread). */
export function onServedBuild(listen: (build: string) => void): void {
  hearBuild = listen;
}

async function request<S extends z.ZodMiniType>(
  path: string,
  init: RequestInit,
  schema: S,
  mark: PerfDetail = { path },
  parse: AnswerParse = JSON.parse,
): Promise<z.infer<S>> {
  let response: Response;
  let text: string;
  // One signal for the caller's and the deadline's (no `AbortSignal.any`: Safari before 17.4).
  const stop = new AbortController();
  const callerStopped = () => stop.abort();
  if (init.signal?.aborted) stop.abort();
  init.signal?.addEventListener('abort', callerStopped);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort();
  }, REQUEST_TIMEOUT_MS);
  try {
    response = await fetch(path, { ...init, signal: stop.signal });
    const build = response.headers.get(BUILD_HEADER);
    if (build) hearBuild?.(build);
    text = await response.text();
  } catch {
    if (timedOut && !init.signal?.aborted)
      throw new ApiError(
        0,
        'timeout',
        `Haulview’s server did not answer within ${REQUEST_TIMEOUT_MS / 1000} s.`,
      );
    throw new ApiError(0, 'network', 'Haulview’s server cannot be reached. Is it running?');
  } finally {
    clearTimeout(timer);
    init.signal?.removeEventListener('abort', callerStopped);
  }
  // The bench times pulls; a mark of another answer (the reviews, the session) would replace it.
  if (path.startsWith('/api/pull/')) perfMark('answer', mark);
  let json: unknown;
  try {
    json = text === '' ? undefined : response.ok ? parse(text) : JSON.parse(text);
  } catch {
    throw notJson(response.status, path);
  }
  if (!response.ok) {
    const parsed = ProxyErrorBody.safeParse(json);
    if (parsed.success) {
      const { code, message, details } = parsed.data.error;
      throw new ApiError(
        response.status,
        code,
        message,
        details,
        response.headers.get('retry-after') ?? undefined,
      );
    }
    throw new ApiError(
      response.status,
      'http_error',
      `The server answered ${path} with HTTP ${response.status}.`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError(
      response.status,
      'bad_answer',
      `The answer of ${path} is not what was expected: ${parsed.error.issues[0]?.message ?? ''}`,
    );
  }
  return parsed.data;
}

export function apiGet<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  return request(path, { method: 'GET', headers: { Accept: 'application/json' }, signal }, schema);
}

/** A body already written out as JSON, with the value it was written from. */
export class WrittenJson {
  constructor(
    readonly value: unknown,
    readonly text: string,
  ) {}
}

/** A state-changing call: JSON body and the header every `POST /api/*` must carry. */
export function apiSend<S extends z.ZodMiniType>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown,
  schema: S,
  signal?: AbortSignal,
  parse?: AnswerParse,
): Promise<z.infer<S>> {
  const value = body instanceof WrittenJson ? body.value : body;
  return request(
    path,
    {
      method,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'X-Requested-With': 'haulview',
      },
      body: body instanceof WrittenJson ? body.text : JSON.stringify(body),
      signal,
    },
    schema,
    // Which lists a pull asked for: the bench tells a load's track from its readings by it.
    { path, include: JSON.stringify((value as { include?: unknown } | null)?.include ?? null) },
    parse,
  );
}

export function apiPost<S extends z.ZodMiniType>(
  path: string,
  body: unknown,
  schema: S,
  signal?: AbortSignal,
  parse?: AnswerParse,
): Promise<z.infer<S>> {
  return apiSend('POST', path, body, schema, signal, parse);
}
