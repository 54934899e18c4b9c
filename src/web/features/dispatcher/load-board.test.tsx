import axe from 'axe-core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Load } from '@/domain/model';
import { emptyLoad, testTime } from '@/testing/loads';
import { toRow } from './board-rows';
import { LoadBoard } from './load-board';

const NOW = Date.parse('2026-11-22T15:00:00Z');
const T = { staleAfterMinutes: 30, silentAfterMinutes: 120 };

function load(id: string, minutesAgo: number): Load {
  return emptyLoad(id, 'external-id', {
    latestLocation: {
      key: id,
      instant: NOW - minutesAgo * 60_000,
      time: testTime(),
      lat: 40,
      lon: -90,
      accuracy: 20,
      place: { city: 'Omaha', state: 'NE', country: 'US' },
      driver: undefined,
    },
  });
}

// jsdom has no layout: give the virtualizer's scroll element a size so rows render.
Object.defineProperty(Element.prototype, 'clientHeight', { configurable: true, get: () => 600 });
Object.defineProperty(Element.prototype, 'clientWidth', { configurable: true, get: () => 400 });

/** A latest status that says the load was delivered. */
const deliveredStatus = () => ({
  key: 's',
  instant: NOW,
  time: testTime(),
  id: undefined,
  name: 'Delivered',
  code: 'DLV',
  driver: undefined,
});

describe('LoadBoard', () => {
  it('re-renders only the row whose load changed when the data refreshes', () => {
    const loads = Array.from({ length: 6 }, (_, i) => load(`L${i}`, i));
    const rows = loads.map((l) => toRow(l, NOW, T, 5));
    const rendered: string[] = [];
    const onRowRender = (id: string) => rendered.push(id);
    const select = vi.fn();
    const { rerender } = render(
      <LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={select} onRowRender={onRowRender} />,
    );
    expect(new Set(rendered)).toEqual(new Set(loads.map((l) => `external-id:${l.id}`)));
    rendered.length = 0;
    // A refresh: one load got a new fix; the others are the very same objects (shareBoard keeps them).
    const moved = load('L3', 3);
    moved.latestLocation = { ...moved.latestLocation!, accuracy: 900 };
    const next = rows.map((r, i) => (i === 3 ? toRow(moved, NOW, T, 5) : r));
    rerender(
      <LoadBoard rows={next} now={NOW} selectedKey={null} onSelect={select} onRowRender={onRowRender} />,
    );
    expect(rendered).toEqual(['external-id:L3']);
  });

  it('moves with the arrow keys and selects with Enter; says stale and silent in words', async () => {
    const rows = [load('A', 1), load('B', 45), load('C', 300)].map((l) => toRow(l, NOW, T, 5));
    const select = vi.fn();
    render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={select} />);
    const grid = screen.getByRole('grid');
    expect(grid).toHaveAccessibleName('Loads, 3 shown');
    // Most urgent first.
    expect(screen.getAllByRole('row').map((r) => r.getAttribute('data-load'))).toEqual([
      'external-id:C',
      'external-id:B',
      'external-id:A',
    ]);
    expect(screen.getAllByRole('row')[0]).toHaveTextContent(/Silent/);
    expect(screen.getAllByRole('row')[1]).toHaveTextContent(/Stale/);
    grid.focus();
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(select).toHaveBeenCalledWith(expect.objectContaining({ key: 'external-id:B' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter loads' }), 'C');
    expect(grid).toHaveAccessibleName('Loads, 1 shown');
  });

  it('takes the keyboard’s row back to the top when the filter or the sort changes', async () => {
    const rows = [load('A', 1), load('B', 45), load('C', 300), load('D', 2)].map((l) => toRow(l, NOW, T, 5));
    const select = vi.fn();
    render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={select} />);
    const grid = screen.getByRole('grid');
    grid.focus();
    // Down to the last row (A, the freshest but one)…
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    // …then "Needs attention" leaves two rows: Enter selects the first of them, not the last.
    await userEvent.click(screen.getByRole('checkbox', { name: /Needs attention/ }));
    grid.focus();
    await userEvent.keyboard('{Enter}');
    expect(select).toHaveBeenLastCalledWith(expect.objectContaining({ key: 'external-id:C' }));
  });
});

describe('LoadBoard, the driver’s phone', () => {
  /** A load whose latest fix names its driver, and with a phone as normalize.ts keeps it (trimmed). */
  function driven(id: string, name: string | undefined, phone: string | undefined): Load {
    const l = load(id, 1);
    l.latestLocation = { ...l.latestLocation!, driver: { name, phone } };
    return l;
  }

  it('makes the phone an icon at the row’s end, named by the full number; a row without a phone has none', () => {
    const rows = [
      driven('A', 'Elena Smith', '+18015550123'),
      driven('B', 'Marcus Lee', undefined),
      load('C', 2),
    ].map((l) => toRow(l, NOW, T, 5));
    render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    const rowOf = (id: string) =>
      screen.getAllByRole('row').find((r) => r.getAttribute('data-load') === `external-id:${id}`)!;

    const call = within(rowOf('A')).getByRole('link');
    expect(call).toHaveAccessibleName('Call Elena Smith at +18015550123');
    expect(call).toHaveAttribute('href', 'tel:+18015550123');
    // An icon, not the number as text across the row's middle: the driver's cell is not a link.
    expect(call).toHaveTextContent('');
    const cells = within(rowOf('A')).getAllByRole('gridcell');
    expect(cells[cells.length - 1]).toContainElement(call);
    expect(within(cells[1]!).queryByRole('link')).toBeNull();
    expect(cells[1]).toHaveTextContent('Elena Smith');
    // The only call link on the board is that one: a driver without a phone, or no driver, is text.
    expect(screen.getAllByRole('link', { name: /^Call / })).toEqual([call]);
    expect(within(rowOf('B')).queryByRole('link')).toBeNull();
    expect(rowOf('B')).toHaveTextContent('Marcus Lee');
    expect(within(rowOf('C')).queryByRole('link')).toBeNull();
    expect(rowOf('C')).toHaveTextContent('driver unknown');
  });

  it('dials the digits of a phone written with spaces and brackets, and leaves one without a number as text', () => {
    const rows = [driven('A', 'Ana Diaz', '+1 (402) 555-0100'), driven('B', 'Bo Li', 'ask dispatch')].map(
      (l) => toRow(l, NOW, T, 5),
    );
    render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    // Named as written, dialled as digits.
    expect(screen.getByRole('link', { name: 'Call Ana Diaz at +1 (402) 555-0100' })).toHaveAttribute(
      'href',
      'tel:+14025550100',
    );
    expect(screen.getAllByRole('link', { name: /^Call / })).toHaveLength(1);
    expect(screen.getByText(/Bo Li · ask dispatch/)).toBeInTheDocument();
  });

  it('replays the loads its filters show, the first ten of a longer list', async () => {
    const user = userEvent.setup();
    const rows = Array.from({ length: 12 }, (_, i) => toRow(load(`R${i}`, i), NOW, T, 5));
    render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    const replay = screen.getByRole('link', { name: 'Replay the first 10 loads shown' });
    const loads = new URL(replay.getAttribute('href')!, 'http://x').searchParams.get('loads')!.split(',');
    expect(loads).toHaveLength(10);
    expect(new Set(loads).size).toBe(10);
    await user.type(screen.getByRole('searchbox'), 'R11');
    expect(screen.getByRole('link', { name: 'Replay this load' })).toHaveAttribute(
      'href',
      '/replay?loads=e:R11',
    );
  });

  it('selects on a click anywhere in the row but the call icon, which calls without selecting', () => {
    const rows = [driven('A', 'Elena Smith', '+14025550100')].map((l) => toRow(l, NOW, T, 5));
    const select = vi.fn();
    render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={select} />);
    const call = screen.getByRole('link', { name: 'Call Elena Smith at +14025550100' });
    // jsdom does not navigate: keep it from trying (and logging that it cannot).
    call.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(call);
    expect(select).not.toHaveBeenCalled();
    // The driver's line, in the row's middle, selects.
    fireEvent.click(screen.getByText('Elena Smith'));
    expect(select).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('row'));
    expect(select).toHaveBeenCalledTimes(2);
  });
});

describe('LoadBoard when the watch list empties', () => {
  it('shows the empty state instead of looping', () => {
    const rows = [load('A', 1), load('B', 45)].map((l) => toRow(l, NOW, T, 5));
    const { rerender } = render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    rerender(<LoadBoard rows={[]} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    expect(screen.getByText('No loads to show yet.')).toBeInTheDocument();
    expect(screen.getByRole('grid')).toHaveAccessibleName('Loads, 0 shown');
  });

  it('keeps the empty board’s words out of the grid, which may hold only rows', async () => {
    render(<LoadBoard rows={[]} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    expect(screen.getByText('No loads to show yet.')).toBeInTheDocument();
    const result = await axe.run(document.body, { runOnly: ['aria-required-children'] });
    expect(result.violations.map((v) => v.id)).toEqual([]);
  });
});

describe('LoadBoard, the attention count', () => {
  it('says how many loads need attention with thousands separated, as the chips count', () => {
    const rows = Array.from({ length: 1200 }, (_, i) => toRow(load(`S${i}`, 45), NOW, T, 5));
    render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    expect(screen.getByRole('checkbox', { name: 'Needs attention (1,200)' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Hide finished (0)' })).not.toBeChecked();
  });

  it('shows a delivered load’s ping age, but not as an alarm, and counts it as finished', () => {
    const done = load('D1', 300);
    done.latestStatus = deliveredStatus();
    const rows = [toRow(done, NOW, T, 5), toRow(load('S1', 300), NOW, T, 5)];
    render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    expect(screen.getByRole('checkbox', { name: 'Needs attention (1)' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Hide finished (1)' })).toBeInTheDocument();
    const [first, second] = screen.getAllByRole('row');
    // Most urgent first: the silent load on the road, then the delivered one, its age said plainly.
    expect(first).toHaveTextContent('Silent');
    expect(second).toHaveTextContent('5 h ago');
    expect(second).not.toHaveTextContent(/Silent|Stale/);
  });
});

describe('LoadBoard, the status chips', () => {
  /** A load with this latest status (none: undefined), its last ping a minute ago. */
  function inStatus(id: string, name: string | undefined): Load {
    const l = load(id, 1);
    l.latestStatus = name
      ? { key: 's', instant: NOW, time: testTime(), id: undefined, name, code: undefined, driver: undefined }
      : undefined;
    return l;
  }
  /** `n` loads in each status, ids numbered on from the statuses before. */
  function rowsIn(...groups: [string | undefined, number][]) {
    let i = 0;
    return groups.flatMap(([name, n]) =>
      Array.from({ length: n }, () => toRow(inStatus(`L${i++}`, name), NOW, T, 5)),
    );
  }
  const strip = () => screen.getByRole('group', { name: 'Loads by status' });
  const chips = () => within(strip()).getAllByRole('button');
  const chipNames = () => chips().map((c) => c.textContent);
  const statusSelect = () => screen.getByRole<HTMLSelectElement>('combobox', { name: /^Status/ });
  const grid = () => screen.getByRole('grid');

  it('shows the count of each status, most frequent first, with thousands separated', () => {
    render(
      <LoadBoard
        rows={rowsIn(['Delivered', 3], ['In transit', 1200], [undefined, 2])}
        now={NOW}
        selectedKey={null}
        onSelect={vi.fn()}
      />,
    );
    expect(chipNames()).toEqual(['In transit 1,200', 'Delivered 3', 'No status 2']);
    for (const chip of chips()) expect(chip).toHaveAttribute('aria-pressed', 'false');
    expect(within(strip()).queryByText(/more in Status/)).toBeNull();
  });

  it('filters the board by the status of a chip, as the select does, and clears on a second click', async () => {
    render(
      <LoadBoard
        rows={rowsIn(['In transit', 3], ['Delivered', 2], ['Dispatched', 1])}
        now={NOW}
        selectedKey={null}
        onSelect={vi.fn()}
      />,
    );
    expect(grid()).toHaveAccessibleName('Loads, 6 shown');
    const delivered = within(strip()).getByRole('button', { name: 'Delivered 2' });
    await userEvent.click(delivered);
    expect(grid()).toHaveAccessibleName('Loads, 2 shown');
    expect(statusSelect()).toHaveValue('Delivered');
    expect(delivered).toHaveAttribute('aria-pressed', 'true');
    expect(chips().filter((c) => c.getAttribute('aria-pressed') === 'true')).toEqual([delivered]);

    await userEvent.click(delivered);
    expect(grid()).toHaveAccessibleName('Loads, 6 shown');
    expect(statusSelect()).toHaveValue('');
    expect(delivered).toHaveAttribute('aria-pressed', 'false');

    // And the other way: the select presses the chip of its status.
    await userEvent.selectOptions(statusSelect(), 'Dispatched');
    expect(within(strip()).getByRole('button', { name: 'Dispatched 1' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(grid()).toHaveAccessibleName('Loads, 1 shown');
  });

  it('filters to the loads without a status by the "No status" chip', async () => {
    render(
      <LoadBoard
        rows={rowsIn(['In transit', 3], [undefined, 2])}
        now={NOW}
        selectedKey={null}
        onSelect={vi.fn()}
      />,
    );
    await userEvent.click(within(strip()).getByRole('button', { name: 'No status 2' }));
    expect(grid()).toHaveAccessibleName('Loads, 2 shown');
    expect(statusSelect()).toHaveValue('No status');
    expect(screen.getAllByRole('row').map((r) => r.getAttribute('data-load'))).toEqual([
      'external-id:L3',
      'external-id:L4',
    ]);
  });

  // Eight statuses, S1 the most frequent: 8 loads, 7, …, S8 with 1.
  const eight = () => rowsIn(...Array.from({ length: 8 }, (_, i): [string, number] => [`S${i + 1}`, 8 - i]));

  it('shows the six most frequent statuses and says how many more the select has', () => {
    render(<LoadBoard rows={eight()} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    expect(chipNames()).toEqual(['S1 8', 'S2 7', 'S3 6', 'S4 5', 'S5 4', 'S6 3']);
    expect(within(strip()).getByText('and 2 more in Status')).toBeInTheDocument();
  });

  it('shows a status beyond the six as a pressed chip while the board is filtered by it', async () => {
    render(<LoadBoard rows={eight()} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    await userEvent.selectOptions(statusSelect(), 'S8');
    expect(grid()).toHaveAccessibleName('Loads, 1 shown');
    expect(chipNames()).toEqual(['S1 8', 'S2 7', 'S3 6', 'S4 5', 'S5 4', 'S6 3', 'S8 1']);
    const s8 = within(strip()).getByRole('button', { name: 'S8 1' });
    expect(s8).toHaveAttribute('aria-pressed', 'true');
    expect(within(strip()).getByText('and 1 more in Status')).toBeInTheDocument();
    // Its chip clears it like any other, and goes: the keyboard's focus moves to the first chip.
    s8.focus();
    await userEvent.keyboard('{Enter}');
    expect(grid()).toHaveAccessibleName('Loads, 36 shown');
    expect(chipNames()).toHaveLength(6);
    expect(within(strip()).getByRole('button', { name: 'S1 8' })).toHaveFocus();
  });

  it('keeps its chips in place under the pointer while a refresh re-ranks them, and re-ranks when it leaves', async () => {
    const board = (rows: ReturnType<typeof rowsIn>) => (
      <LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />
    );
    const { rerender } = render(board(rowsIn(['In transit', 3], ['Delivered', 2], ['At pickup', 1])));
    await userEvent.hover(within(strip()).getByRole('button', { name: 'Delivered 2' }));
    // The refresh: Delivered now leads, At pickup has no load left.
    rerender(board(rowsIn(['Delivered', 5], ['In transit', 3])));
    expect(chipNames()).toEqual(['In transit 3', 'Delivered 5', 'At pickup 0']);
    // A click leaves the focus on its chip; the pointer's leaving lets the chips go all the same.
    await userEvent.click(within(strip()).getByRole('button', { name: 'Delivered 5' }));
    expect(grid()).toHaveAccessibleName('Loads, 5 shown');
    await userEvent.unhover(strip());
    expect(chipNames()).toEqual(['Delivered 5', 'In transit 3']);
  });

  it('keeps its chips in place while the keyboard’s focus is in them, and re-ranks when it leaves', async () => {
    const board = (rows: ReturnType<typeof rowsIn>) => (
      <LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />
    );
    const { rerender } = render(board(rowsIn(['In transit', 3], ['Delivered', 2])));
    within(strip()).getByRole('button', { name: 'In transit 3' }).focus();
    await userEvent.tab();
    expect(within(strip()).getByRole('button', { name: 'Delivered 2' })).toHaveFocus();
    rerender(board(rowsIn(['Delivered', 5], ['In transit', 3])));
    expect(chipNames()).toEqual(['In transit 3', 'Delivered 5']);
    expect(within(strip()).getByRole('button', { name: 'Delivered 5' })).toHaveFocus();
    await userEvent.tab();
    expect(chipNames()).toEqual(['Delivered 5', 'In transit 3']);
  });
});

describe('LoadBoard, its filter and sort in the URL', () => {
  const board = (rows: ReturnType<typeof toRow>[]) => (
    <LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />
  );
  const shownIds = () => screen.getAllByRole('row').map((r) => r.getAttribute('data-load'));
  // L0 pinged a minute ago, L1 40 minutes ago (stale), L2 3 hours ago (silent); L2 is in Omaha.
  const three = () =>
    [load('L0', 1), load('L1', 40), load('L2', 180)].map((l, i) => {
      if (i !== 2 && l.latestLocation)
        l.latestLocation = { ...l.latestLocation, place: { city: 'Denver', state: 'CO', country: 'US' } };
      return toRow(l, NOW, T, 5);
    });

  it('writes what the user chose to the URL, so a reload or a shared link opens the same board', async () => {
    render(board(three()));
    await userEvent.click(screen.getByRole('checkbox', { name: /Needs attention/ }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter loads' }), 'denver');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort' }), 'id');
    const params = new URLSearchParams(window.location.search);
    expect(Object.fromEntries(params)).toEqual({ stale: '1', q: 'denver', sort: 'id' });
    expect(shownIds()).toEqual(['external-id:L1']);

    // Cleared, each goes from the URL: a bare board leaves a bare URL.
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Filter loads' }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Needs attention/ }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort' }), 'staleness');
    expect(window.location.search).toBe('');
    expect(shownIds()).toEqual(['external-id:L2', 'external-id:L1', 'external-id:L0']);
  });

  it('hides the finished loads with one click, kept in the URL as hide=finished', async () => {
    const rows = three();
    const done = load('L3', 600);
    done.latestStatus = deliveredStatus();
    const { unmount } = render(board([...rows, toRow(done, NOW, T, 5)]));
    expect(shownIds()).toEqual(['external-id:L2', 'external-id:L1', 'external-id:L0', 'external-id:L3']);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Hide finished (1)' }));
    expect(window.location.search).toBe('?hide=finished');
    expect(shownIds()).toEqual(['external-id:L2', 'external-id:L1', 'external-id:L0']);
    unmount();
    // A reload, or a shared link: the same board.
    render(board([...rows, toRow(done, NOW, T, 5)]));
    expect(screen.getByRole('checkbox', { name: /Hide finished/ })).toBeChecked();
    expect(shownIds()).not.toContain('external-id:L3');
    await userEvent.click(screen.getByRole('checkbox', { name: /Hide finished/ }));
    expect(window.location.search).toBe('');
  });

  it('opens with the filter and sort the URL carries, and ignores a sort it does not know', () => {
    window.history.replaceState(null, '', '/?stale=1&sort=id');
    const { unmount } = render(board(three()));
    expect(screen.getByRole('checkbox', { name: /Needs attention/ })).toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Sort' })).toHaveValue('id');
    expect(shownIds()).toEqual(['external-id:L1', 'external-id:L2']);
    unmount();

    window.history.replaceState(null, '', '/?sort=sideways&q=omaha&status=');
    render(board(three()));
    expect(screen.getByRole('combobox', { name: 'Sort' })).toHaveValue('staleness');
    expect(screen.getByRole('searchbox', { name: 'Filter loads' })).toHaveValue('omaha');
    // An empty status is no status filter.
    expect(screen.getByRole('combobox', { name: /^Status/ })).toHaveValue('');
    expect(shownIds()).toEqual(['external-id:L2']);
  });

  it('says the status it filters by when no load has it, rather than "All" over an empty board', () => {
    window.history.replaceState(null, '', '/?status=Bogus');
    render(board(three()));
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: /^Status/ });
    expect(select).toHaveValue('Bogus');
    expect(select.selectedOptions[0]).toHaveTextContent('Bogus (0)');
    expect(screen.getByText('No load matches these filters.')).toBeInTheDocument();
  });
});
