import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Alert } from '@/contract/alerts-api';
import { createQueryClient } from '../../data/query-client';
import { AlertBell } from './alert-bell';
import { ALERTS_SEEN_PREFIX } from './alerts-seen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const alert = (id: number): Alert => ({
  id: String(id),
  ruleId: 1,
  kind: 'late',
  load: `e:${9000 + id}`,
  occurrence: 'stop 2',
  text: `Late for the next stop: load e:${9000 + id}, Stop 2: Late ${id} min`,
  since: null,
  firedAt: '2026-11-26T20:00:00Z',
});

let answer: unknown;
/** Newest first, as the server answers: ids 12 down to 1. */
const twelve = { alerts: Array.from({ length: 12 }, (_, i) => alert(12 - i)) };

beforeEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
  answer = twelve;
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async () => json(200, answer)),
  );
});
afterEach(() => vi.unstubAllGlobals());

const show = (user = 'Ana') =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AlertBell user={user} refreshSeconds={30} />
    </QueryClientProvider>,
  );

describe('the header’s alert bell', () => {
  it('counts the alerts fired since this user last looked, and opening it is looking', async () => {
    window.localStorage.setItem(`${ALERTS_SEEN_PREFIX}Ana`, '9');
    show();
    const bell = await screen.findByRole('button', { name: 'Alerts, 3 new alerts' });
    expect(screen.getByRole('status')).toHaveTextContent('3 new alerts');
    expect(bell).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(bell);
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    const list = screen.getByRole('list', { name: 'Latest alerts' });
    const items = within(list).getAllByRole('listitem');
    // The latest ten, newest first; what was new when it opened stays marked.
    expect(items).toHaveLength(10);
    expect(items[0]).toHaveTextContent('e:9012');
    expect(items[0]).toHaveTextContent('Late 12 min');
    expect(within(items[0]!).getByRole('link', { name: 'e:9012' })).toHaveAttribute(
      'href',
      '/loads/external-id/9012',
    );
    expect(items.map((i) => within(i).queryByText('new') !== null)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(screen.getByRole('link', { name: 'See all (12) on Exceptions' })).toHaveAttribute(
      'href',
      '/exceptions',
    );
    await waitFor(() => expect(bell).toHaveAccessibleName('Alerts, none new'));
    expect(window.localStorage.getItem(`${ALERTS_SEEN_PREFIX}Ana`)).toBe('12');
  });

  it('keeps each user’s count apart in one browser', async () => {
    window.localStorage.setItem(`${ALERTS_SEEN_PREFIX}Ana`, '12');
    show('Bob');
    expect(await screen.findByRole('button', { name: 'Alerts, 12 new alerts' })).toBeInTheDocument();
  });

  it('closes on Escape and gives the focus back to the bell, from the keyboard alone', async () => {
    show();
    const bell = await screen.findByRole('button', { name: /^Alerts, / });
    await userEvent.tab();
    expect(bell).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('list', { name: 'Latest alerts' })).toBeVisible();
    await userEvent.tab();
    expect(screen.getByRole('link', { name: 'e:9012' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(bell).toHaveAttribute('aria-expanded', 'false');
    expect(bell).toHaveFocus();
    expect(screen.queryByRole('list', { name: 'Latest alerts' })).toBeNull();
  });

  it('counts as looked at while the Exceptions page, which lists them all, is open', async () => {
    window.history.replaceState(null, '', '/exceptions');
    show();
    await waitFor(() => expect(window.localStorage.getItem(`${ALERTS_SEEN_PREFIX}Ana`)).toBe('12'));
    expect(screen.getByRole('button', { name: 'Alerts, none new' })).toBeInTheDocument();
  });

  it('takes a mangled stored value for nothing seen, and says when the alerts cannot be read', async () => {
    window.localStorage.setItem(`${ALERTS_SEEN_PREFIX}Ana`, 'twelve');
    answer = { alerts: [{ id: 3 }] };
    show();
    const bell = await screen.findByRole('button', { name: 'Alerts, none new' });
    await userEvent.click(bell);
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not read the alerts');
    expect(window.localStorage.getItem(`${ALERTS_SEEN_PREFIX}Ana`)).toBe('twelve');
  });

  it('says so when no alert has fired', async () => {
    answer = { alerts: [] };
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Alerts, none new' }));
    expect(await screen.findByText('No alert has fired.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'See all on Exceptions' })).toBeInTheDocument();
  });
});
