import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebhook, readWebhookAnswer, WebhookRequestError, type WebhookFailure } from './webhook-api';
import { describeFailure } from './webhook-problems';

const UUID = '3f2b8c1e-5d4a-4e6b-9c7d-0a1b2c3d4e5f';

function failureOf(status: number, body: unknown, headers: Record<string, string> = {}): WebhookFailure {
  try {
    readWebhookAnswer(status, new Headers(headers), typeof body === 'string' ? body : JSON.stringify(body));
  } catch (error) {
    if (error instanceof WebhookRequestError) return error.failure;
    throw error;
  }
  throw new Error('expected a failure');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('readWebhookAnswer', () => {
  it('reads a 201 and its Location, and a 201 without Location', () => {
    const body = JSON.stringify({
      uuid: UUID,
      eventType: 'PdvRequestCompleted',
      clientUrl: 'https://a.example',
      isActive: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      extra: 1,
    });
    const withLocation = readWebhookAnswer(201, new Headers({ Location: `/api/v1/webhooks/${UUID}` }), body);
    expect(withLocation.location).toBe(`/api/v1/webhooks/${UUID}`);
    expect(withLocation.webhook.uuid).toBe(UUID);
    expect(withLocation.webhook.isActive).toBeUndefined();
    expect(readWebhookAnswer(201, new Headers(), body).location).toBeUndefined();
  });

  it('reads a 201 whose uuid is an integer and whose other fields are odd, as the service may send it', () => {
    const body = JSON.stringify({
      uuid: 123,
      eventType: 'PdvRequestCompleted',
      clientUrl: null,
      isActive: 'yes',
      createdAt: { at: 1 },
    });
    const created = readWebhookAnswer(201, new Headers({ Location: '/api/v1/webhooks/123' }), body);
    expect(created.webhook).toMatchObject({ uuid: '123', eventType: 'PdvRequestCompleted' });
    expect(created.webhook.isActive).toBeUndefined();
    expect(created.webhook.createdAt).toBeUndefined();
    // Without a uuid there is nothing to name the subscription by.
    for (const uuid of [null, '', 1.5, { id: 1 }])
      expect(failureOf(201, { uuid, eventType: 'PdvRequestCompleted' })).toMatchObject({
        kind: 'unexpected',
      });
  });

  it('calls a 2xx that is no webhook an unexpected answer', () => {
    expect(failureOf(201, { id: 1 })).toMatchObject({ kind: 'unexpected', status: 201 });
    expect(failureOf(201, '')).toMatchObject({ kind: 'unexpected', status: 201 });
  });

  it('tells the proxy’s own error from the service’s 7.2 body by shape', () => {
    expect(failureOf(502, { error: { code: 'upstream_unreachable', message: 'x' } })).toEqual({
      kind: 'proxy',
      status: 502,
      code: 'upstream_unreachable',
      message: 'x',
      details: undefined,
      retryAfter: undefined,
    });
    expect(failureOf(422, { statusCode: 422, errors: [{ message: 'm', keyword: 'enum' }] })).toMatchObject({
      kind: 'rejected',
      status: 422,
      errors: [{ message: 'm', keyword: 'enum' }],
    });
  });

  it('reads a 7.2 body whose entries are odd without losing the others', () => {
    const failure = failureOf(400, {
      statusCode: 400,
      errors: [42, { message: 'ok', params: 'not an object' }, { keyword: 'weird', params: { field: null } }],
    });
    expect(failure).toMatchObject({ kind: 'rejected', status: 400 });
    const view = describeFailure(new WebhookRequestError(failure));
    expect(view.problems.map((p) => p.message)).toEqual([
      'unreadable error entry',
      'ok',
      'Breaks the service’s “weird” rule',
    ]);
  });

  it('calls a body that is neither shape an unexpected answer', () => {
    expect(failureOf(400, {})).toMatchObject({ kind: 'unexpected', status: 400 });
    expect(failureOf(422, { error: 'text' })).toMatchObject({ kind: 'unexpected' });
    expect(failureOf(500, 'Internal Server Error')).toMatchObject({ kind: 'unexpected', status: 500 });
    expect(failureOf(409, [1, 2])).toMatchObject({ kind: 'unexpected' });
  });

  it('keeps the proxy’s Retry-After', () => {
    const failure = failureOf(
      429,
      { error: { code: 'upstream_rate_limited', message: 'x' } },
      { 'Retry-After': '30' },
    );
    expect(describeFailure(new WebhookRequestError(failure))).toMatchObject({
      retryable: true,
      title: expect.stringContaining('try again in 30 s'),
    });
  });
});

describe('describeFailure', () => {
  const view = (f: WebhookFailure) => describeFailure(new WebhookRequestError(f));

  it('puts an error under its field however the service spells the field', () => {
    const v = view({
      kind: 'rejected',
      status: 422,
      errors: [{ message: 'bad', keyword: 'format', params: { field: 'body.clientUrl' } }],
    } as WebhookFailure);
    expect(v.fieldProblems.clientUrl).toEqual([
      { message: 'bad', keyword: 'format', field: undefined, allowedValues: undefined },
    ]);
    expect(v.problems).toEqual([]);
    expect(v.focus).toBe('clientUrl');
  });

  it('puts the proxy’s own validation errors under their fields', () => {
    const v = view({
      kind: 'proxy',
      status: 400,
      code: 'invalid_request',
      message: 'clientUrl: too long',
      details: [
        { path: 'clientUrl', message: 'too long' },
        { path: '(body)', message: 'x' },
      ],
    });
    expect(v.fieldProblems.clientUrl).toEqual([{ message: 'too long' }]);
    expect(v.retryable).toBe(false);
  });

  it('does not blame the token for the proxy’s own 401 (Haulview’s login)', () => {
    const v = view({ kind: 'proxy', status: 401, code: 'unauthorized', message: 'log in first' });
    expect(v.fieldProblems.token).toBeUndefined();
    expect(v.title).toContain('log in first');
  });

  it('offers a retry for what asking again may fix, and only for that', () => {
    expect(view({ kind: 'network' }).retryable).toBe(true);
    expect(view({ kind: 'timeout', afterMs: 60_000 }).title).toBe('No answer within 60 s.');
    expect(view({ kind: 'rejected', status: 503, errors: [] }).retryable).toBe(true);
    expect(view({ kind: 'rejected', status: 409, errors: [] }).retryable).toBe(false);
    expect(view({ kind: 'unexpected', status: 400, reason: 'r' }).retryable).toBe(false);
  });
});

describe('createWebhook', () => {
  it('sends exactly the two documented fields, the URL trimmed, the token only in the header', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(
      new Response(
        JSON.stringify({
          uuid: UUID,
          eventType: 'PdvRequestCompleted',
          clientUrl: 'https://a.example',
          isActive: true,
          createdAt: 'x',
        }),
        { status: 201 },
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    await createWebhook({
      eventType: 'PdvRequestCompleted',
      clientUrl: '  https://a.example  ',
      token: 'a.b.c',
    });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.body).toBe('{"eventType":"PdvRequestCompleted","clientUrl":"https://a.example"}');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer a.b.c');
  });

  it('refuses to send an http:// address', async () => {
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    await expect(
      createWebhook({ eventType: 'PdvRequestCompleted', clientUrl: 'http://a.example', token: 'a.b.c' }),
    ).rejects.toThrow();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
