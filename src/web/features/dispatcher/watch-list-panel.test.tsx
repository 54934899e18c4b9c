import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useWatchList, watchList } from '../../lib/watch-list';
import type { LoadRef } from '../../lib/load-ref';
import { WatchListPanel } from './watch-list-panel';

/** The panel over the page's one watch list, as the dispatcher page shows it. */
function Panel({ notFound, maxIds = 500 }: { notFound: LoadRef[]; maxIds?: number }) {
  return <WatchListPanel entries={useWatchList()} notFound={notFound} maxIds={maxIds} />;
}

const stored = () => window.localStorage.getItem('haulview.watch');
const inUrl = () => new URLSearchParams(window.location.search).get('w');

beforeEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
  // A load number spelled like an unknown external id: removing the one must keep the other.
  window.localStorage.setItem('haulview.watch', 'e:700100,GHOST,700200;n:LN1,GHOST');
  watchList.reset();
});

describe('WatchListPanel, an id the service does not know', () => {
  it('lists it as not found with a × that stops watching that id of that kind, and only it', async () => {
    const user = userEvent.setup();
    render(<Panel notFound={[{ by: 'external-id', id: 'GHOST' }]} />);
    // Only the loads the service knows count as watched.
    expect(screen.getByText('(4 watched · 1 not found)')).toBeInTheDocument();
    const notFound = screen.getByText(/Not found by the tracking service \(1\)/).parentElement!
      .parentElement!;
    expect(notFound).toHaveTextContent('GHOST (external id)');

    await user.click(within(notFound).getByRole('button', { name: 'Stop watching GHOST (external id)' }));

    expect(screen.getByText('(4 watched)')).toBeInTheDocument();
    // Kept in this browser and in the link, in the order they were added.
    expect(stored()).toBe('e:700100,700200;n:LN1,GHOST');
    expect(inUrl()).toBe('e:700100,700200;n:LN1,GHOST');
  });

  it('has a × for each id not found, each removing its own', async () => {
    const user = userEvent.setup();
    const { rerender } = render(
      <Panel
        notFound={[
          { by: 'external-id', id: '700200' },
          { by: 'load-number', id: 'LN1' },
        ]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Stop watching LN1 (load number)' }));
    expect(stored()).toBe('e:700100,GHOST,700200;n:GHOST');
    // The next answer no longer names it: the page passes the rest.
    rerender(<Panel notFound={[{ by: 'external-id', id: '700200' }]} />);
    expect(screen.queryByRole('button', { name: 'Stop watching LN1 (load number)' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Stop watching 700200 (external id)' }));
    expect(stored()).toBe('e:700100,GHOST;n:GHOST');
    expect(screen.getByText('(3 watched)')).toBeInTheDocument();
  });

  it('counts only the loads the service knows, and removes all those it does not in one click', async () => {
    const user = userEvent.setup();
    const unknown: LoadRef[] = [
      { by: 'external-id', id: 'GHOST' },
      { by: 'external-id', id: '700200' },
      { by: 'load-number', id: 'GHOST' },
    ];
    const { rerender } = render(<Panel notFound={unknown} />);
    expect(screen.getByText('(2 watched · 3 not found)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove all 3' }));
    expect(stored()).toBe('e:700100;n:LN1');
    expect(inUrl()).toBe('e:700100;n:LN1');
    // The next answer names none.
    rerender(<Panel notFound={[]} />);
    expect(screen.getByText('(2 watched)')).toBeInTheDocument();
    expect(screen.queryByText(/Not found by the tracking service/)).toBeNull();
  });
});

describe('WatchListPanel, a mixed pasted column', () => {
  beforeEach(() => {
    window.localStorage.setItem('haulview.watch', '');
    watchList.reset();
  });

  it('reads an id that is not all digits as a load number, the numbers as the kind chosen', async () => {
    const user = userEvent.setup();
    render(<Panel notFound={[]} />);
    // A spreadsheet column: external ids and load numbers as the demo writes them.
    await user.type(screen.getByRole('textbox'), '700101{enter}LN482913-7{enter}700102{enter}LN100204-12');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(stored()).toBe('e:700101,700102;n:LN482913-7,LN100204-12');
    expect(screen.getByRole('status')).toHaveTextContent(
      '4 added. 2 read as load numbers: not all digits, so not external ids.',
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the choice of load numbers for every id: a load number may be all digits', async () => {
    const user = userEvent.setup();
    render(<Panel notFound={[]} />);
    await user.click(screen.getByRole('radio', { name: 'Load number' }));
    await user.type(screen.getByRole('textbox'), '700101 LN482913-7');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(stored()).toBe('n:700101,LN482913-7');
    expect(screen.getByRole('status')).toHaveTextContent(/^2 added\.$/);
  });
});

describe('WatchListPanel, a long list', () => {
  it('writes how many loads are watched with thousands separated, as the board counts them', () => {
    const entries: LoadRef[] = Array.from({ length: 1200 }, (_, i) => ({
      by: 'external-id',
      id: String(700000 + i),
    }));
    render(<WatchListPanel entries={entries} notFound={[]} maxIds={10_000} />);
    expect(screen.getByText('(1,200 watched)')).toBeInTheDocument();
  });
});

describe('WatchListPanel, ids already watched', () => {
  it('says which were already watched instead of counting them as added, and adds the new ones', async () => {
    const user = userEvent.setup();
    render(<Panel notFound={[]} />);
    await user.click(screen.getByRole('button', { name: 'Add or clear loads' }));
    await user.type(screen.getByRole('textbox'), '700100 700300 GHOST');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByRole('status')).toHaveTextContent('1 added. 2 already watched.');
    expect(screen.getByText('(6 watched)')).toBeInTheDocument();
    expect(stored()).toBe('e:700100,GHOST,700200,700300;n:LN1,GHOST');

    await user.type(screen.getByRole('textbox'), '700300');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByRole('status')).toHaveTextContent('0 added. 1 already watched.');
    expect(screen.getByText('(6 watched)')).toBeInTheDocument();
  });

  it('does not count them against the room left on a full board', async () => {
    const user = userEvent.setup();
    // Three external ids watched, room for one more: the two already watched do not take it.
    render(<Panel notFound={[]} maxIds={4} />);
    await user.click(screen.getByRole('button', { name: 'Add or clear loads' }));
    await user.type(screen.getByRole('textbox'), '700100 700200 700400');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('1 added. 2 already watched.');
    expect(stored()).toBe('e:700100,GHOST,700200,700400;n:LN1,GHOST');
  });
});

describe('WatchListPanel, folded', () => {
  it('is one line while loads are watched: the form opens with its button and stays open after adding', async () => {
    const user = userEvent.setup();
    render(<Panel notFound={[{ by: 'external-id', id: 'GHOST' }]} />);
    const toggle = screen.getByRole('button', { name: 'Add or clear loads' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Clear all' })).toBeNull();
    // Folded, it still says what is watched, and the ids not found can still be removed.
    expect(screen.getByText('(4 watched · 1 not found)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove it' })).toBeInTheDocument();

    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-expanded', 'true');
    await user.type(screen.getByRole('textbox', { name: /Watch loads/ }), '700300');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByRole('status')).toHaveTextContent('1 added.');
    expect(screen.getByRole('textbox', { name: /Watch loads/ })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Hide' }));
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('is open, with no button to fold it, while nothing is watched', () => {
    window.localStorage.clear();
    watchList.reset();
    render(<Panel notFound={[]} />);
    expect(screen.getByRole('textbox', { name: /Watch loads/ })).toBeVisible();
    expect(screen.queryByRole('button', { name: /Add or clear loads|Hide/ })).toBeNull();
  });
});

describe('WatchListPanel, a link the board cannot take whole', () => {
  it('keeps the first ids of a kind past the bound, says how many were left out, and the link follows', async () => {
    window.history.replaceState(null, '', '/?w=e:700100:700105;n:LN1');
    watchList.reset();
    render(<Panel notFound={[]} maxIds={4} />);
    const note = await screen.findByText(
      'The board holds at most 4 ids of one kind: the first are watched, 2 external ids left out.',
    );
    expect(note).toHaveAttribute('role', 'status');
    expect(inUrl()).toBe('e:700100:700103;n:LN1');
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(note).not.toBeInTheDocument();
  });

  it('says so when a link’s watch list names no id it can read', async () => {
    window.history.replaceState(null, '', '/?w=garbage');
    watchList.reset();
    render(<Panel notFound={[]} />);
    expect(
      await screen.findByText(
        'The link’s watch list names no load id Haulview can read: nothing was added from it.',
      ),
    ).toHaveAttribute('role', 'status');
  });
});
