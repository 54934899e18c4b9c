import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOT_RECORDED_HEADER, type RecordedWebhook } from '@/contract/admin-api';
import type { ClientConfig } from '@/contract/proxy-api';
import { createQueryClient } from '../../data/query-client';
import { WebhooksPage } from './webhooks-page';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJl';
const UUID = '3f2b8c1e-5d4a-4e6b-9c7d-0a1b2c3d4e5f';
const URL_OK = 'https://hooks.example.com/haulview';

/** The page reads only `demo` of the config; the rest is other views' business. */
const configWith = (demo: ClientConfig['demo']) => ({ demo }) as Partial<ClientConfig> as ClientConfig;
const config = configWith(null);
const demoConfig = configWith({ externalIds: ['1'], loadNumbers: [], webhookToken: 'demo.token.jwt' });

const created = {
  uuid: UUID,
  eventType: 'PdvRequestCompleted',
  clientUrl: URL_OK,
  isActive: true,
  createdAt: '2026-11-22T14:03:07.123Z',
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}
const createdAnswer = () => json(201, created, { Location: `/api/v1/webhooks/${UUID}` });
const rejected = (statusCode: number, errors: unknown[]) => json(statusCode, { statusCode, errors });
const entry = (message: string, keyword: string, params?: unknown) => ({
  appName: 'webhook-service',
  dateTime: '2026-11-22T14:03:07Z',
  message,
  keyword,
  ...(params === undefined ? {} : { params }),
});

/** What the server answers to the creations (`POST /api/webhooks`), one by one. */
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
/** The team's list as the server keeps it; a 201 adds to it, as the server's registry does. */
let listed: RecordedWebhook[];
let listMock: ReturnType<typeof vi.fn<typeof fetch>>;

const recorded = (over: Partial<RecordedWebhook> = {}): RecordedWebhook => ({
  uuid: UUID,
  eventType: 'PdvRequestCompleted',
  clientUrl: URL_OK,
  createdBy: 'Bo',
  createdAt: created.createdAt,
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  listed = [];
  fetchMock = vi.fn<typeof fetch>();
  listMock = vi.fn<typeof fetch>(async () => json(200, { webhooks: listed }));
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method !== 'POST') return listMock(input, init);
    const answer = await fetchMock(input, init);
    if (answer.status === 201 && answer.headers.get(NOT_RECORDED_HEADER) === null) listed.unshift(recorded());
    return answer;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage(pageConfig: ClientConfig = config, requestTimeoutMs?: number) {
  const user = userEvent.setup();
  const client = createQueryClient();
  const ui = () => (
    <QueryClientProvider client={client}>
      <WebhooksPage config={pageConfig} requestTimeoutMs={requestTimeoutMs} />
    </QueryClientProvider>
  );
  const view = render(ui());
  return { user, client, ...view };
}

const urlField = () => screen.getByLabelText('Client URL');
const tokenField = () => screen.getByLabelText('Bearer token');
const eventField = () => screen.getByLabelText('Event type');
const submit = () => screen.getByRole('button', { name: /create webhook|creating/i });

/** The text of the elements that describe a field (its errors and hint). */
function description(field: HTMLElement): string {
  return (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

async function fillAndSend(user: ReturnType<typeof userEvent.setup>, url = URL_OK, token = TOKEN) {
  await user.type(urlField(), url);
  await user.type(tokenField(), token);
  await user.click(submit());
}

describe('WebhooksPage', () => {
  it('creates a webhook: one request with the token in its header, a result card with copy buttons, a log entry', async () => {
    fetchMock.mockResolvedValueOnce(createdAnswer());
    const { user } = renderPage();
    await fillAndSend(user);

    const heading = await screen.findByRole('heading', { name: 'Webhook created' });
    expect(heading).toHaveFocus();

    expect(fetchMock).toHaveBeenCalledOnce();
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe('/api/webhooks');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ eventType: 'PdvRequestCompleted', clientUrl: URL_OK });
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe(`Bearer ${TOKEN}`);
    expect(headers.get('X-Requested-With')).toBe('haulview');
    expect(headers.get('Content-Type')).toBe('application/json');

    const card = screen.getByRole('region', { name: 'Webhook created' });
    expect(card).toHaveTextContent(UUID);
    expect(card).toHaveTextContent('PdvRequestCompleted');
    expect(card).toHaveTextContent(URL_OK);
    expect(card).toHaveTextContent('Yes');
    expect(card).toHaveTextContent('2026-11-22 14:03:07 UTC');
    expect(within(card).getByText('2026-11-22 14:03:07 UTC').previousElementSibling).toHaveAttribute(
      'datetime',
      created.createdAt,
    );
    expect(card).toHaveTextContent(`/api/v1/webhooks/${UUID}`);

    for (const label of ['UUID', 'Event type', 'Client URL', 'Active', 'Created', 'Location']) {
      expect(within(card).getByRole('button', { name: `Copy ${label}` })).toBeInTheDocument();
    }
    await user.click(within(card).getByRole('button', { name: 'Copy UUID' }));
    expect(await navigator.clipboard.readText()).toBe(UUID);
    expect(within(card).getByText('Copied')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Copy Location' }));
    expect(await navigator.clipboard.readText()).toBe(`/api/v1/webhooks/${UUID}`);

    // The server recorded it: the team's list, read again, shows it with who created it.
    const log = screen.getByRole('region', { name: 'Created through Haulview' });
    expect(log).toHaveTextContent(/your team created here/i);
    expect(log).toHaveTextContent(/offers no way to list/i);
    const row = await within(log).findByRole('row', { name: new RegExp(UUID) });
    expect(row).toHaveTextContent('Bo');
    expect(row).toHaveTextContent(URL_OK);
    expect(listMock.mock.calls.map(([path]) => path)).toEqual(['/api/webhooks', '/api/webhooks']);
    expect(within(card).queryByText(/missing from the team’s list/)).not.toBeInTheDocument();
  });

  it('says when the service created a webhook that the team’s list could not record', async () => {
    fetchMock.mockResolvedValueOnce(
      json(201, created, {
        Location: `/api/v1/webhooks/${UUID}`,
        [NOT_RECORDED_HEADER]: 'store_unavailable',
      }),
    );
    const { user } = renderPage();
    await fillAndSend(user);
    const card = await screen.findByRole('region', { name: 'Webhook created' });
    expect(card).toHaveTextContent(UUID);
    expect(within(card).getByText(/missing from the team’s list below.*Copy its UUID/)).toHaveAttribute(
      'role',
      'status',
    );
  });

  it('says a field the created webhook lacks was not sent, or not readable: the proxy cannot tell which', async () => {
    fetchMock.mockResolvedValueOnce(json(201, { uuid: UUID }, { Location: `/api/v1/webhooks/${UUID}` }));
    const { user } = renderPage();
    await fillAndSend(user);
    const card = await screen.findByRole('region', { name: 'Webhook created' });
    expect(card).toHaveTextContent(UUID);
    expect(within(card).getAllByText('not sent by the service, or not readable').length).toBeGreaterThan(0);
  });

  it('tells the user to copy by hand when the clipboard is unavailable', async () => {
    fetchMock.mockResolvedValueOnce(createdAnswer());
    const { user } = renderPage();
    await fillAndSend(user);
    const card = await screen.findByRole('region', { name: 'Webhook created' });
    const clipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    try {
      await user.click(within(card).getByRole('button', { name: 'Copy UUID' }));
      expect(within(card).getByText(/copying is not available here/i)).toBeInTheDocument();
      // The value is selected instead, ready for Ctrl+C.
      expect(window.getSelection()?.toString()).toBe(UUID);
    } finally {
      if (clipboard) Object.defineProperty(navigator, 'clipboard', clipboard);
    }
  });

  it('shows a 422 enum error under the event type, with the allowed values, and focuses that field', async () => {
    fetchMock.mockResolvedValueOnce(
      rejected(422, [
        entry('must be equal to one of the allowed values', 'enum', {
          field: 'eventType',
          allowedValues: ['PdvRequestCompleted'],
        }),
      ]),
    );
    const { user } = renderPage();
    await fillAndSend(user);

    await waitFor(() => expect(eventField()).toHaveAttribute('aria-invalid', 'true'));
    expect(eventField()).toHaveFocus();
    expect(description(eventField())).toContain('must be equal to one of the allowed values');
    expect(description(eventField())).toContain('Allowed values: PdvRequestCompleted');
    expect(urlField()).toHaveAttribute('aria-invalid', 'false');
    // The form keeps what was typed.
    expect(urlField()).toHaveValue(URL_OK);
    expect(tokenField()).toHaveValue(TOKEN);
  });

  it('renders several errors at once, an unknown keyword among them, each where it belongs', async () => {
    fetchMock.mockResolvedValueOnce(
      rejected(422, [
        entry('must be a reachable host', 'hostReachable', { field: 'clientUrl' }),
        entry('', 'quotaExceeded'),
        entry('account suspended', 'accountState', { field: 'account', allowedValues: [] }),
      ]),
    );
    const { user } = renderPage();
    await fillAndSend(user);

    await waitFor(() => expect(urlField()).toHaveAttribute('aria-invalid', 'true'));
    expect(description(urlField())).toContain('must be a reachable host');
    expect(description(urlField())).toContain('hostReachable');

    const summary = screen.getByText(/did not accept these values/).parentElement!;
    expect(summary).toHaveFocus();
    expect(summary).toHaveTextContent('quotaExceeded');
    expect(summary).toHaveTextContent('account: account suspended');
    expect(summary).not.toHaveTextContent('must be a reachable host');

    // Editing the URL clears the service's verdict on it; the message under it is now the form's own.
    await user.clear(urlField());
    await user.type(urlField(), 'https://other.example.com');
    expect(urlField()).toHaveAttribute('aria-invalid', 'false');
    expect(description(urlField())).not.toContain('must be a reachable host');
  });

  it('shows a 400 above the form', async () => {
    fetchMock.mockResolvedValueOnce(rejected(400, [entry('Unexpected token } in JSON', 'syntax')]));
    const { user } = renderPage();
    await fillAndSend(user);
    const title = await screen.findByText(/could not read the request \(HTTP 400\)/);
    expect(title.parentElement).toHaveTextContent('Unexpected token } in JSON');
    expect(title.parentElement).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('on 401 says the token is invalid or expired and moves focus to the token field', async () => {
    fetchMock.mockResolvedValueOnce(rejected(401, [entry('jwt expired', 'auth')]));
    const { user } = renderPage();
    await fillAndSend(user);
    await waitFor(() => expect(tokenField()).toHaveFocus());
    expect(tokenField()).toHaveAttribute('aria-invalid', 'true');
    expect(description(tokenField())).toContain('The token is invalid or expired');
    // The service's own line is behind "Details", closed, not under the friendly message.
    expect(description(tokenField())).not.toContain('jwt expired');
    const details = screen.getByText('Details').closest('details')!;
    expect(details).not.toHaveAttribute('open');
    expect(details).toHaveTextContent('jwt expired');
  });

  it('drops the last answer’s verdict and Details once a submit is refused for another reason', async () => {
    fetchMock.mockResolvedValueOnce(rejected(401, [entry('the token is invalid unauthorized', 'auth')]));
    const { user } = renderPage();
    await fillAndSend(user, URL_OK, 'junk');
    await waitFor(() => expect(description(tokenField())).toContain('The token is invalid or expired'));
    await user.clear(tokenField());
    await user.click(submit());
    expect(description(tokenField())).toContain('Enter the bearer token.');
    expect(screen.queryByText('Details')).toBeNull();
    expect(screen.queryByText(/the token is invalid unauthorized/)).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('on 409 says the webhook already exists, the service’s lines behind Details', async () => {
    fetchMock.mockResolvedValueOnce(rejected(409, [entry('clientUrl: duplicate', 'conflict')]));
    const { user } = renderPage();
    await fillAndSend(user);
    const title = await screen.findByText('A webhook for this event type and URL already exists');
    const summary = title.parentElement!;
    expect(summary).toHaveFocus();
    const details = within(summary).getByText('Details').closest('details')!;
    expect(details).not.toHaveAttribute('open');
    expect(details).toHaveTextContent('clientUrl: duplicate');
    // Nothing in the team's list to point to.
    expect(summary).toHaveTextContent('It was not created through Haulview, so it is not in the list below.');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Webhook created' })).not.toBeInTheDocument();
  });

  it('on 409 points to the matching entry of the team’s list, whoever created it', async () => {
    listed = [
      recorded({ uuid: '11111111-2222-4333-8444-555555555555', clientUrl: 'https://b.example/x' }),
      recorded({ createdBy: 'Cy' }),
    ];
    fetchMock.mockResolvedValueOnce(rejected(409, [entry('duplicate', 'conflict')]));
    const { user } = renderPage();
    // Written otherwise, the same address.
    await fillAndSend(user, 'HTTPS://Hooks.Example.com/haulview');
    const summary = (await screen.findByText('A webhook for this event type and URL already exists'))
      .parentElement!;
    const link = within(summary).getByRole('link', { name: new RegExp(`created by Cy .*UUID ${UUID}`) });
    expect(link).toHaveAttribute('href', `#created-webhook-${UUID}`);
    const log = screen.getByRole('region', { name: 'Created through Haulview' });
    const rows = within(log).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('aria-current'))).toEqual([null, 'true']);
    expect(rows[1]).toHaveAttribute('id', `created-webhook-${UUID}`);
  });

  it.each([
    'https://localhost/hooks',
    'https://127.0.0.1/hooks',
    'https://10.0.0.5/hooks',
    'https://172.20.1.1/hooks',
    'https://192.168.0.10/hooks',
    'https://169.254.169.254/hooks',
    'https://[::1]/hooks',
    'https://[fc00::1]/hooks',
  ])('refuses %s as a client URL before any request', async (url) => {
    const { user } = renderPage();
    // user.type reads "[" and "{" as keys unless doubled.
    await fillAndSend(user, url.replace(/[[{]/g, '$&$&'));
    expect(urlField()).toHaveValue(url);
    expect(urlField()).toHaveAttribute('aria-invalid', 'true');
    expect(description(urlField())).toMatch(/this machine|private network|link-local/);
    expect(urlField()).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('on a network failure keeps the form and offers a retry that sends it again', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(createdAnswer());
    const { user } = renderPage();
    await fillAndSend(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/cannot be reached/);
    expect(urlField()).toHaveValue(URL_OK);
    expect(tokenField()).toHaveValue(TOKEN);

    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Webhook created' })).toHaveFocus();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it.each([
    [502, 'upstream_unreachable', /webhook service cannot be reached/],
    [504, 'upstream_timeout', /did not answer in time/],
    [500, 'internal_error', /could not complete the request \(HTTP 500\)/],
  ])('on the proxy’s %i (%s) keeps the form and offers a retry', async (status, code, text) => {
    fetchMock.mockResolvedValueOnce(json(status, { error: { code, message: 'x' } }));
    const { user } = renderPage();
    await fillAndSend(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(text);
    expect(alert).toHaveTextContent(/already exists/);
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(urlField()).toHaveValue(URL_OK);
    expect(tokenField()).toHaveValue(TOKEN);
  });

  it('on a 5xx that is not JSON says the answer was unexpected and offers a retry', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<html>Bad gateway</html>', { status: 503 }));
    const { user } = renderPage();
    await fillAndSend(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/unexpected answer .*HTTP 503/i);
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('gives up after its own deadline and offers a retry', async () => {
    fetchMock.mockImplementationOnce(
      (_input, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const { user } = renderPage(config, 50);
    await fillAndSend(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/no answer within/i);
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('says what is wrong with the URL as you type and blocks an http:// URL before any request', async () => {
    const { user } = renderPage();
    await user.type(urlField(), 'http://hooks.example.com');
    expect(urlField()).toHaveAttribute('aria-invalid', 'true');
    expect(description(urlField())).toContain('The address must start with https://');
    await user.type(tokenField(), TOKEN);
    await user.click(submit());
    expect(urlField()).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says an address longer than the service takes is too long, as you type', async () => {
    const { user } = renderPage();
    await user.click(urlField());
    await user.paste(`https://hooks.example.com/${'a'.repeat(2048)}`);
    expect(urlField()).toHaveAttribute('aria-invalid', 'true');
    expect(description(urlField())).toContain('An address of at most 2048 characters.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('focuses the first invalid field when a submit is blocked', async () => {
    const { user } = renderPage();
    await user.click(submit());
    expect(urlField()).toHaveFocus();
    expect(description(urlField())).toMatch(/enter the address/i);
    expect(description(tokenField())).toContain('Enter the bearer token');
    await user.type(urlField(), URL_OK);
    await user.click(submit());
    expect(tokenField()).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends one request however often the form is submitted while it is pending', async () => {
    let answer!: (r: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { user } = renderPage();
    await user.type(urlField(), URL_OK);
    await user.type(tokenField(), TOKEN);
    const form = submit().closest('form')!;
    // Two submits before React renders again, then clicks and Enter while the answer is awaited.
    act(() => {
      fireEvent.submit(form);
      fireEvent.submit(form);
    });
    await user.click(submit());
    await user.type(urlField(), '{Enter}');
    expect(submit()).toHaveAttribute('aria-disabled', 'true');
    expect(submit()).toHaveTextContent('Creating…');
    await act(async () => answer(createdAnswer()));
    await screen.findByRole('heading', { name: 'Webhook created' });
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('never puts the token in storage or the address bar', async () => {
    fetchMock.mockResolvedValueOnce(createdAnswer());
    const { user } = renderPage();
    await fillAndSend(user);
    await screen.findByRole('heading', { name: 'Webhook created' });
    for (const store of [localStorage, sessionStorage]) {
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i)!;
        expect(key).not.toContain(TOKEN);
        expect(store.getItem(key)).not.toContain(TOKEN);
        expect(store.getItem(key)).not.toContain('eyJ');
      }
    }
    expect(window.location.href).not.toContain(TOKEN);
    expect(document.cookie).not.toContain(TOKEN);
  });

  it('shows the team’s list from the server, with who created each, and never asks with the token', async () => {
    listed = [
      recorded({
        uuid: 'aaaaaaaa-2222-4333-8444-555555555555',
        createdBy: 'Cy',
        clientUrl: 'https://c.example/h',
      }),
      recorded(),
    ];
    renderPage();
    const log = screen.getByRole('region', { name: 'Created through Haulview' });
    const rows = (await within(log).findAllByRole('row')).slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .slice(1)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Cy', 'PdvRequestCompleted', 'https://c.example/h', 'aaaaaaaa-2222-4333-8444-555555555555'],
      ['Bo', 'PdvRequestCompleted', URL_OK, UUID],
    ]);
    expect(new Headers(listMock.mock.calls[0]![1]?.headers).get('Authorization')).toBeNull();
    // Nothing of the list is kept in this browser: another admin's browser reads the same.
    expect(localStorage.length).toBe(0);
    // The form starts empty.
    expect(tokenField()).toHaveValue('');
  });

  it('says so when the list cannot be read, and reads it again on request', async () => {
    listMock.mockResolvedValueOnce(
      json(503, { error: { code: 'store_unavailable', message: 'the store does not answer' } }),
    );
    listed = [recorded()];
    const { user } = renderPage();
    const log = screen.getByRole('region', { name: 'Created through Haulview' });
    const alert = await within(log).findByRole('alert');
    expect(alert).toHaveTextContent(/cannot be read now: the store does not answer/);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(log).findByText(UUID)).toBeInTheDocument();
    expect(within(log).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows an empty list as such', async () => {
    renderPage();
    const log = screen.getByRole('region', { name: 'Created through Haulview' });
    expect(
      await within(log).findByText('No webhook has been created through Haulview yet.'),
    ).toBeInTheDocument();
  });

  it('fills in the demo token in demo mode, and offers no such button otherwise', async () => {
    const { user, unmount } = renderPage(demoConfig);
    await user.click(screen.getByRole('button', { name: 'Use the demo token' }));
    expect(tokenField()).toHaveValue('demo.token.jwt');
    expect(tokenField()).toHaveAttribute('type', 'password');
    unmount();

    renderPage(config);
    expect(screen.queryByRole('button', { name: 'Use the demo token' })).not.toBeInTheDocument();
  });

  it('is usable with the keyboard alone', async () => {
    fetchMock.mockResolvedValueOnce(createdAnswer());
    const { user } = renderPage(demoConfig);
    await user.tab();
    expect(eventField()).toHaveFocus();
    await user.tab();
    expect(urlField()).toHaveFocus();
    await user.keyboard(URL_OK);
    await user.tab();
    expect(tokenField()).toHaveFocus();
    await user.tab(); // Show token
    await user.tab(); // Use the demo token
    await user.keyboard('{Enter}');
    expect(tokenField()).toHaveValue('demo.token.jwt');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Webhook created' })).toHaveFocus();
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toEqual({
      eventType: 'PdvRequestCompleted',
      clientUrl: URL_OK,
    });
  });

  it('shows Haulview’s own refusal (403) above the form, without offering a retry', async () => {
    fetchMock.mockResolvedValueOnce(
      json(403, { error: { code: 'missing_client_header', message: 'requests must carry the header' } }),
    );
    const { user } = renderPage();
    await fillAndSend(user);
    const title = await screen.findByText(/refused the request \(HTTP 403\): requests must carry/);
    expect(title.parentElement).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    // Not the service's verdict on the token: the token field is left alone.
    expect(tokenField()).toHaveAttribute('aria-invalid', 'false');
  });
});
