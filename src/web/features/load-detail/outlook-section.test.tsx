import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Load, Outlook } from '@/domain/model';
import { emptyLoad, testLatestLocation, testTime } from '@/testing/loads';
import { OutlookSection } from './outlook-section';

const MIN = 60_000;
const T = { staleAfterMinutes: 30, silentAfterMinutes: 120 };

function load(minutesAgo: number, outlook: Outlook): Load {
  const now = Date.now();
  return emptyLoad('700101', 'external-id', {
    latestLocation: testLatestLocation(now - minutesAgo * MIN, {
      time: testTime(),
      lat: 35.2221,
      lon: -97.4395,
      driver: { name: 'Ana Lopez', phone: '+1 (402) 555-0100' },
    }),
    outlook,
  });
}

describe("the load page's stops, ETA and why it is dark", () => {
  it('says why the phone is dark, with the evidence, the action with the phone as a link, and the last place', () => {
    const now = Date.now();
    render(
      <OutlookSection
        load={load(150, {
          asOf: 0,
          dark: { reason: 'at-stop', stopOrder: 1, meters: 120 },
          stops: [
            {
              order: 1,
              type: 'pickup',
              name: 'Norman Cold Storage',
              place: { city: 'Norman', state: 'OK' },
              progress: 'arrived',
              arrivedAt: now - 3 * 60 * MIN,
              status: 'no-appointment',
            },
            {
              order: 2,
              type: 'delivery',
              place: { city: 'Dallas', state: 'TX' },
              progress: 'upcoming',
              appointment: { local: '11/24/2026 13:00', offsetHours: -6, instant: now + 24 * 60 * MIN },
              eta: now + 25 * 60 * MIN + 10 * MIN,
              etaInputs: {
                from: now - 150 * MIN,
                miles: 412,
                mph: 52,
                measured: true,
                rests: 1,
                restHours: 10,
              },
              status: 'late',
              lateMinutes: 70,
            },
          ],
        })}
        thresholds={T}
        excursionTolerance={5}
      />,
    );
    const why = screen.getByRole('group', { name: 'Why it is dark' });
    expect(why).toHaveTextContent(
      'Silent: Waiting at a stop · Last ping 120 m from Stop 1 (pickup), Norman Cold Storage, Norman, OK',
    );
    expect(why).toHaveTextContent('Call the driver or the facility');
    expect(screen.getByRole('link', { name: 'call Ana Lopez at +1 (402) 555-0100' })).toHaveAttribute(
      'href',
      'tel:+14025550100',
    );
    expect(why).toHaveTextContent('Last known place: Norman, OK (35.2221, -97.4395, ±20 m), 2 h 30 min ago');
    const stops = screen.getByRole('list', { name: 'Stops' });
    expect(stops).toHaveTextContent(
      /412 mi at 52 mph \+ one 10 h rest → ETA \w{3} \d\d?, \d\d:\d\d GMT-6; appointment 13:00 → 1 h 10 min late/,
    );
    expect(stops.querySelector('[data-stop-status="late"]')).toHaveTextContent('Late');
    expect(stops).toHaveTextContent('No appointment');
    // The appointment written as the stop's other times, and "no appointment" said once.
    const [pickup, delivery] = stops.querySelectorAll('li');
    expect(delivery).toHaveTextContent(/ · appointment \w{3} \d\d?, \d\d:\d\d GMT-6/);
    expect(delivery).not.toHaveTextContent('11/24/2026');
    expect(pickup?.textContent?.match(/no appointment/gi)).toHaveLength(1);
  });

  it('says a load with no status and no ping yet is not started, not that its phone reports', () => {
    render(
      <OutlookSection
        load={emptyLoad('700127', 'external-id', {})}
        thresholds={T}
        excursionTolerance={0.5}
      />,
    );
    expect(screen.getByText(/^Not started: no status and no ping yet/)).toBeVisible();
    expect(screen.queryByText(/phone reports/)).toBeNull();
  });

  it('says nothing of a dark phone while it reports, and "no appointment" when the stop has none', () => {
    render(
      <OutlookSection
        load={load(2, {
          asOf: 0,
          dark: { reason: 'moving', mph: 50 },
          stops: [{ order: 1, place: {}, progress: 'upcoming', status: 'no-appointment' }],
        })}
        thresholds={T}
        excursionTolerance={5}
      />,
    );
    expect(screen.queryByRole('group', { name: 'Why it is dark' })).toBeNull();
    expect(screen.getByRole('list', { name: 'Stops' })).toHaveTextContent('No appointment');
    expect(screen.getByRole('list', { name: 'Stops' })).toHaveTextContent(
      'No ETA: no position to reckon from',
    );
  });

  it("runs each stop's detention clock, and says what told its arrival and departure", () => {
    const now = Date.now();
    const stop = (order: number, fields: Partial<Outlook['stops'][number]>) => ({
      order,
      type: 'delivery' as const,
      place: { city: 'Dallas', state: 'TX' },
      freeMinutes: 120,
      status: 'no-appointment' as const,
      progress: 'arrived' as const,
      ...fields,
    });
    render(
      <OutlookSection
        load={load(2, {
          asOf: 0,
          stops: [
            stop(1, {
              type: 'pickup',
              progress: 'departed',
              arrivedAt: now - 10 * 60 * MIN,
              arrivedBy: 'event',
              departedAt: now - 9 * 60 * MIN,
              departedBy: 'pings',
            }),
            stop(2, { arrivedAt: now - 200 * MIN, arrivedBy: 'pings' }),
          ],
        })}
        thresholds={T}
        excursionTolerance={5}
      />,
    );
    const [pickup, delivery] = screen.getAllByRole('listitem');
    expect(pickup).toHaveTextContent(
      /arrived \w{3} \d\d?, \d\d:\d\d UTC \(status event\), left \w{3} \d\d?, \d\d:\d\d UTC \(pings\)/,
    );
    expect(pickup!.querySelector('[data-dwell]')).toHaveTextContent(
      'Dwell: inside 1 h, within 2 h free · free time 2 h',
    );
    expect(delivery!.querySelector('[data-dwell]')).toHaveTextContent(
      'At the stop: detention 1 h 20 min (inside 3 h 20 min) · free time 2 h',
    );
    expect(screen.getByRole('button', { name: 'Download detention evidence (CSV)' })).toBeEnabled();
  });

  it('keeps the clock of a stop where the phone went dark running, open, with the departure unknown', () => {
    const now = Date.now();
    render(
      <OutlookSection
        load={load(150, {
          asOf: 0,
          dark: { reason: 'at-stop', stopOrder: 2, meters: 80 },
          stops: [
            {
              order: 2,
              type: 'delivery',
              place: { city: 'Dallas', state: 'TX' },
              progress: 'arrived',
              arrivedAt: now - 200 * MIN,
              arrivedBy: 'pings',
              freeMinutes: 120,
              status: 'no-appointment',
            },
          ],
        })}
        thresholds={T}
        excursionTolerance={5}
      />,
    );
    const stop = screen.getByRole('listitem');
    expect(stop.querySelector('[data-dwell]')).toHaveTextContent('At the stop: open, detention 1 h 20 min');
    // The last ping came 150 min ago, 50 min after arriving: that much is proven, no detention yet.
    expect(stop.querySelector('[data-dwell-open]')).toHaveTextContent(
      /^Departure unknown: last ping \w{3} \d\d?, \d\d:\d\d UTC, 80 m from the stop, inside its fence\. Detention at least 0 min by the pings; 1 h 20 min if still there\.$/,
    );
  });
});
