import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Load, Outlook, StopOutlook } from '@/domain/model';
import { emptyLoad, testLatestLocation, testTime } from '@/testing/loads';
import { toRow } from './board-rows';
import { LoadBoard } from './load-board';

const NOW = Date.parse('2026-11-24T15:00:00Z');
const MIN = 60_000;
const T = { staleAfterMinutes: 30, silentAfterMinutes: 120 };

Object.defineProperty(Element.prototype, 'clientHeight', { configurable: true, get: () => 800 });
Object.defineProperty(Element.prototype, 'clientWidth', { configurable: true, get: () => 400 });

const delivery = (fields: Partial<StopOutlook>): StopOutlook => ({
  order: 2,
  type: 'delivery',
  place: { city: 'Dallas', state: 'TX' },
  progress: 'upcoming',
  status: 'on-time',
  ...fields,
});

function load(id: string, minutesAgo: number, outlook: Outlook, status = 'In transit'): Load {
  return emptyLoad(id, 'external-id', {
    latestLocation: testLatestLocation(NOW - minutesAgo * MIN, { key: id, time: testTime() }),
    latestStatus: {
      key: 's',
      instant: NOW - 300 * MIN,
      time: testTime(),
      id: undefined,
      name: status,
      code: undefined,
      driver: undefined,
    },
    outlook,
  });
}

const appointment = (instant: number) => ({ local: '11/24/2026 13:00', offsetHours: -6, instant });

describe('the board says why a load is dark and how its next stop stands', () => {
  it('in words and colour, for each load', () => {
    const loads = [
      load('DARK', 200, {
        asOf: 0,
        dark: { reason: 'moving', at: NOW - 200 * MIN, mph: 58 },
        stops: [delivery({ status: 'late', lateMinutes: 70, appointment: appointment(NOW + 5 * 60 * MIN) })],
      }),
      load('RISK', 1, {
        asOf: 0,
        // Reckoned for a fresh phone too, but said only when the load is dark.
        dark: { reason: 'stopped' },
        stops: [delivery({ status: 'at-risk', lateMinutes: -25, appointment: appointment(NOW + 60 * MIN) })],
      }),
      load('NOAPPT', 2, { asOf: 0, stops: [delivery({ status: 'no-appointment' })] }),
      load('PASSED', 3, {
        asOf: 0,
        stops: [delivery({ status: 'on-time', lateMinutes: -30, appointment: appointment(NOW - 10 * MIN) })],
      }),
      load(
        'DONE',
        400,
        { asOf: 0, dark: { reason: 'moving', mph: 50 }, stops: [delivery({ progress: 'arrived' })] },
        'Delivered',
      ),
    ];
    const rows = loads.map((l) => toRow(l, NOW, T, 5));
    render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    const row = (id: string) =>
      screen.getAllByRole('row').find((r) => r.getAttribute('data-load') === `external-id:${id}`)!;

    expect(row('DARK')).toHaveTextContent('Went dark while moving · Delivery: Late 1 h 10 min');
    expect(row('DARK').querySelector('[data-dark-reason]')).toHaveClass('text-status-silent');
    expect(row('DARK').querySelector('[data-stop-status="late"]')).toHaveClass('text-status-silent');

    expect(row('RISK')).toHaveTextContent('Delivery: At risk, 25 min to spare');
    expect(row('RISK')).not.toHaveTextContent('Went dark');
    expect(row('RISK').querySelector('[data-stop-status="at-risk"]')).toHaveClass('text-status-stale');

    expect(row('NOAPPT')).toHaveTextContent('Delivery: No appointment');
    // Its appointment passed before it arrived: late at the board's clock, whatever the ETA said.
    expect(row('PASSED')).toHaveTextContent('Delivery: Late: appointment passed');
    expect(row('PASSED').querySelector('[data-stop-status]')).toHaveAttribute('data-stop-status', 'late');
    // A finished load raises neither.
    expect(row('DONE').querySelector('[data-outlook]')).toBeNull();
  });

  it('runs a detention clock while a load stands at a stop past its free time', () => {
    const at = (arrivedMinutesAgo: number, fields: Partial<StopOutlook> = {}) =>
      delivery({
        progress: 'arrived',
        arrivedAt: NOW - arrivedMinutesAgo * MIN,
        freeMinutes: 120,
        ...fields,
      });
    const loads = [
      load('WAIT', 1, { asOf: 0, stops: [at(45)] }),
      load('DETAINED', 1, { asOf: 0, stops: [at(200)] }),
      // The demo's clock runs 60 times faster: 3 real minutes are 3 hours there.
      load('DEMO', 1, { asOf: 0, clockScale: 60, stops: [at(3)] }),
      load('ARRIVED_LATE', 1, {
        asOf: 0,
        stops: [at(10, { status: 'late', lateMinutes: 25, appointment: appointment(NOW - 35 * MIN) })],
      }),
    ];
    const rows = loads.map((l) => toRow(l, NOW, T, 5));
    const { rerender } = render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    const row = (id: string) =>
      screen.getAllByRole('row').find((r) => r.getAttribute('data-load') === `external-id:${id}`)!;

    expect(row('WAIT')).toHaveTextContent('At delivery · 45 min of 2 h free');
    expect(row('WAIT').querySelector('[data-detention]')).toBeNull();
    expect(row('DETAINED')).toHaveTextContent('At delivery · detention 1 h 20 min');
    expect(row('DETAINED').querySelector('[data-detention]')).toHaveClass('text-status-silent');
    expect(row('DEMO')).toHaveTextContent('At delivery · detention 1 h');
    expect(row('ARRIVED_LATE')).toHaveTextContent('At delivery · 10 min of 2 h free · arrived 25 min late');

    // The clock runs with the board's: 80 minutes on, the first load is detained too.
    rerender(<LoadBoard rows={rows} now={NOW + 80 * MIN} selectedKey={null} onSelect={vi.fn()} />);
    expect(row('WAIT')).toHaveTextContent('At delivery · detention 5 min');
    expect(row('DETAINED')).toHaveTextContent('At delivery · detention 2 h 40 min');
  });

  it('keeps the clock running, marked open, while the phone is dark at the stop', () => {
    const dark = load('DARK_AT_DOCK', 150, {
      asOf: 0,
      dark: { reason: 'at-stop', at: NOW - 150 * MIN, stopOrder: 2, meters: 40 },
      stops: [
        delivery({ progress: 'arrived', arrivedAt: NOW - 200 * MIN, arrivedBy: 'pings', freeMinutes: 120 }),
      ],
    });
    const rows = [toRow(dark, NOW, T, 5)];
    const { rerender } = render(<LoadBoard rows={rows} now={NOW} selectedKey={null} onSelect={vi.fn()} />);
    const row = screen
      .getAllByRole('row')
      .find((r) => r.getAttribute('data-load') === 'external-id:DARK_AT_DOCK')!;
    // The open clock first, so a phone's narrow row keeps it; the reason it mostly repeats after.
    expect(row.querySelector('[data-outlook]')).toHaveTextContent(
      /^At delivery · open, detention 1 h 20 min · Waiting at a stop$/,
    );
    rerender(<LoadBoard rows={rows} now={NOW + 60 * MIN} selectedKey={null} onSelect={vi.fn()} />);
    expect(row).toHaveTextContent('open, detention 2 h 20 min');
  });
});
