import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { MainNav } from './main-nav';

const LINKS = [
  { href: '/', label: 'Map' },
  { href: '/webhooks', label: 'Webhooks' },
];

function renderNav() {
  // The config is never answered here: no badge, which these tests do not look at.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MainNav links={LINKS} />
    </QueryClientProvider>,
  );
}

beforeEach(() => window.history.replaceState(null, '', '/'));

describe('MainNav', () => {
  it('links to the pages it is given, the current one marked', () => {
    renderNav();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(Array.from(nav.querySelectorAll('a'), (a) => [a.getAttribute('href'), a.textContent])).toEqual([
      ['/', 'Map'],
      ['/webhooks', 'Webhooks'],
    ]);
    expect(screen.getByRole('link', { name: 'Map' })).toHaveAttribute('aria-current', 'page');
  });

  it('opens its menu with the button, and closes it when a link is followed or on Escape', async () => {
    const user = userEvent.setup();
    renderNav();
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('link', { name: 'Webhooks' }));
    expect(window.location.pathname).toBe('/webhooks');
    expect(menu).toHaveAttribute('aria-expanded', 'false');

    await user.click(menu);
    await user.keyboard('{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveFocus();
  });
});
