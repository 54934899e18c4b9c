import { cleanup, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Load } from '@/domain/model';
import { emptyLoad, testTime } from '@/testing/loads';
import { toRow } from './board-rows';
import { watchList } from '../../lib/watch-list';
import { SelectedLoadPanel } from './selected-load-panel';

const NOW = Date.parse('2026-11-22T15:00:00Z');
const T = { staleAfterMinutes: 30, silentAfterMinutes: 120 };
const STOPS = [
  { stopExternalId: 'S1', stopOrderNumber: 1, stopType: 'Pickup', city: 'Omaha', state: 'NE', country: 'US' },
  {
    stopExternalId: 'S2',
    stopOrderNumber: 2,
    stopType: 'Delivery',
    city: 'Denver',
    state: 'CO',
    country: 'US',
  },
];

/** A load in Lincoln 12 minutes ago, with the status given 40 minutes ago; stops only when given. */
function load(status: { name: string; code?: string }, stops?: unknown): Load {
  return emptyLoad('700110', 'external-id', {
    latestLocation: {
      key: 'p',
      instant: NOW - 12 * 60_000,
      time: testTime(),
      lat: 40.8,
      lon: -96.7,
      accuracy: 37,
      place: { city: 'Lincoln', state: 'NE', country: 'US' },
      driver: { name: 'Elena Smith', phone: '+18015550123' },
    },
    latestStatus: { key: 's', instant: NOW - 40 * 60_000, time: testTime(), ...status },
    extras: stops === undefined ? {} : { stops },
  });
}

function show(track: Load | undefined, row: Load) {
  render(
    <SelectedLoadPanel
      selection={{ by: 'external-id', id: '700110' }}
      row={toRow(row, NOW, T, 5)}
      filteredOut={false}
      track={track}
      trackLoading={track === undefined}
      trackFailed={false}
      now={NOW}
      onClose={vi.fn()}
    />,
  );
  const panel = screen.getByRole('region', { name: 'Selected load' });
  /** The value beside a term of the panel's list, or null. */
  const fact = (term: string) => {
    const dt = within(panel).queryByText(term, { selector: 'dt' });
    return dt ? (dt.nextElementSibling?.textContent ?? '') : null;
  };
  return { panel, fact };
}

describe('SelectedLoadPanel', () => {
  it('offers "Stop watching" only for a load on the watch list', () => {
    watchList.clear();
    const { panel } = show(undefined, load({ name: 'In transit' }));
    expect(within(panel).queryByRole('button', { name: 'Stop watching' })).toBeNull();
    cleanup();
    watchList.add('external-id', ['700110']);
    const watched = show(undefined, load({ name: 'In transit' }));
    expect(within(watched.panel).getByRole('button', { name: 'Stop watching' })).toBeVisible();
    watchList.clear();
  });

  it('says where the load is and when, its status, its next stop and its driver’s full number', () => {
    const track = load({ name: 'In transit', code: 'ITR' }, STOPS);
    const { fact, panel } = show(track, load({ name: 'In transit', code: 'ITR' }));
    expect(fact('Where')).toBe('Lincoln, NE · 12 min ago');
    expect(fact('Status')).toBe('In transit (ITR) · 40 min ago');
    expect(fact('Next stop')).toBe('Delivery · Denver, CO');
    expect(fact('Driver')).toBe('Elena Smith · +18015550123');
    expect(within(panel).getByRole('link', { name: '+18015550123' })).toHaveAttribute(
      'href',
      'tel:+18015550123',
    );
  });

  it('heads for the first stop before pickup, is at the delivery at delivery, and has none left once delivered', () => {
    const planned = load({ name: 'Dispatched', code: 'DSP' }, STOPS);
    expect(show(planned, planned).fact('Next stop')).toBe('Pickup · Omaha, NE');
    cleanup();
    const arrived = load({ name: 'Arrived at delivery', code: 'ADL' }, STOPS);
    expect(show(arrived, arrived).fact('At')).toBe('Delivery · Denver, CO');
    cleanup();
    const delivered = load({ name: 'Delivered', code: 'DLV' }, STOPS);
    expect(show(delivered, delivered).fact('Next stop')).toBe('none: delivered');
  });

  it('says nothing of a next stop when the answer has no stops (the board’s), or more than one could be next', () => {
    // Before its track is in: the board's row, whose answer leaves extras out.
    const { fact } = show(undefined, load({ name: 'In transit', code: 'ITR' }));
    expect(fact('Where')).toBe('Lincoln, NE · 12 min ago');
    expect(fact('Status')).toBe('In transit (ITR) · 40 min ago');
    expect(fact('Next stop')).toBeNull();
    expect(fact('At')).toBeNull();
    cleanup();
    // Two pickups: in transit may be on the way to the second pickup or to the delivery.
    const twoPickups = load({ name: 'In transit', code: 'ITR' }, [
      STOPS[0],
      { ...STOPS[0], stopOrderNumber: 2 },
      { ...STOPS[1], stopOrderNumber: 3 },
    ]);
    expect(show(twoPickups, twoPickups).fact('Next stop')).toBeNull();
    cleanup();
    // A status that says nothing of where in its trip the load is.
    const odd = load({ name: 'Driver has viewed the load track' }, STOPS);
    expect(show(odd, odd).fact('Next stop')).toBeNull();
  });
});
