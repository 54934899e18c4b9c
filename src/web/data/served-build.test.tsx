import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpdateNotice } from '../components/update-notice';
import { ErrorBanner } from '../components/error-banner';
import { apiGet, ApiError } from './api-client';
import { ClientConfig } from '@/contract/proxy-api';
import { noteServedBuild, servedAnotherBuild, startBuildCheck } from './served-build';

/** A page as the server sends it: with its build's meta tag, or none (Vite's dev server). */
function pageOf(build?: string): Document {
  const doc = document.implementation.createHTMLDocument('Haulview');
  if (build !== undefined) {
    const meta = doc.createElement('meta');
    meta.name = 'haulview-build';
    meta.content = build;
    doc.head.append(meta);
  }
  return doc;
}

afterEach(() => vi.unstubAllGlobals());

describe('the build a tab runs and the one the server serves', () => {
  it('differ only once an answer names another build than the page', () => {
    startBuildCheck(pageOf('aaaa'));
    act(() => noteServedBuild('aaaa'));
    expect(servedAnotherBuild()).toBe(false);
    act(() => noteServedBuild('bbbb'));
    expect(servedAnotherBuild()).toBe(true);
    // A rolling deploy rolled back: the same build again.
    act(() => noteServedBuild('aaaa'));
    expect(servedAnotherBuild()).toBe(false);
  });

  it('never differ for a page that names no build (the dev server)', () => {
    startBuildCheck(pageOf());
    act(() => noteServedBuild('bbbb'));
    expect(servedAnotherBuild()).toBe(false);
  });

  it('are heard from every answer’s header, failed ones too', async () => {
    startBuildCheck(pageOf('aaaa'));
    act(() => noteServedBuild('aaaa'));
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('{"error":{"code":"x","message":"no"}}', {
            status: 500,
            headers: { 'Haulview-Build': 'cccc' },
          }),
      ),
    );
    await act(() => expect(apiGet('/api/config', ClientConfig)).rejects.toThrow('no'));
    expect(servedAnotherBuild()).toBe(true);
  });
});

describe('a tab opened before a deploy', () => {
  it('says Haulview was updated and offers a reload, only once another build answered', async () => {
    startBuildCheck(pageOf('aaaa'));
    act(() => noteServedBuild('aaaa'));
    render(<UpdateNotice />);
    expect(screen.queryByRole('status')).toBeNull();
    act(() => noteServedBuild('bbbb'));
    expect(screen.getByRole('status')).toHaveTextContent(
      'Haulview has been updated since this page was opened.',
    );
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('tells a reader that cannot read a new answer to reload, not to try again', () => {
    startBuildCheck(pageOf('aaaa'));
    act(() => noteServedBuild('aaaa'));
    const unread = new ApiError(200, 'bad_answer', 'The answer of /api/shares is not what was expected: x');
    const { unmount } = render(<ErrorBanner error={unread} onRetry={() => {}} />);
    expect(screen.getByRole('alert')).toHaveTextContent('The answer of /api/shares is not what was expected');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
    act(() => noteServedBuild('bbbb'));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Haulview has been updated since this page was opened, and this page cannot read the new answers: reload it.',
    );
    expect(screen.getByRole('button', { name: 'Reload' })).toBeVisible();
    unmount();
    // Any other failure keeps its own words.
    render(<ErrorBanner error={new ApiError(0, 'network', 'x')} />);
    expect(screen.getByRole('alert')).toHaveTextContent('server cannot be reached');
  });
});
