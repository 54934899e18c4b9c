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
});

describe('LoadBoard, the driver’s phone', () => {
  /** A load whose latest fix names its driver, and with a phone as normalize.ts keeps it (trimmed). */
  function driven(id: string, name: string | undefined, phone: string | undefined): Load {
    const l = load(id, 1);
    l.latestLocation = { ...l.latestLocation!, driver: { name, phone } };
    return l;
  }

  it('makes the phone a tel: link named by the number; a row without a phone has no link', () => {
    const rows = [
      driven('A', 'Elena Smith', '+14025550100'),
      driven('B', 'Marcus Lee', undefined),
      load('C', 2),
    ].map((l) => toRow(l, NOW, T, 5));
    render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    const rowOf = (id: string) =>
      screen.getAllByRole('row').find((r) => r.getAttribute('data-load') === `external-id:${id}`)!;

    const call = within(rowOf('A')).getByRole('link');
    expect(call).toHaveAccessibleName('+14025550100');
    expect(call).toHaveAttribute('href', 'tel:+14025550100');
    expect(rowOf('A')).toHaveTextContent('Elena Smith · +14025550100');
    // The only link on the board is that one: a driver without a phone, or no driver, is text.
    expect(screen.getAllByRole('link')).toEqual([call]);
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
    // Shown as written, dialled as digits.
    expect(screen.getByRole('link', { name: '+1 (402) 555-0100' })).toHaveAttribute(
      'href',
      'tel:+14025550100',
    );
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(screen.getByText(/Bo Li · ask dispatch/)).toBeInTheDocument();
  });

  it('calls without selecting the row the link is in', () => {
    const rows = [driven('A', 'Elena Smith', '+14025550100')].map((l) => toRow(l, NOW, T, 5));
    const select = vi.fn();
    render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={select} />);
    const call = screen.getByRole('link', { name: '+14025550100' });
    // jsdom does not navigate: keep it from trying (and logging that it cannot).
    call.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(call);
    expect(select).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('row'));
    expect(select).toHaveBeenCalledTimes(1);
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
});
